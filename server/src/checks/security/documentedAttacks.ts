import type { Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';
import type { Fence } from '../../parse/markdown/skillFile';
import type { TextLike } from '../../parse/text/textLike';
import { hiddenInstructions } from './hiddenText';
import { hostileInstruction } from './hostileInstructions';
import { remoteCode, riskyCommand } from './riskyExecution';

// Text that shows an attack to teach it is not the attack: a security review's catalogue of injections, a
// "VULNERABLE:" block, a table of commands to flag. Such a finding is still told (a reviewer may want to see what a
// skill shows its agent), as information, with the reason it reads as documentation; the same text anywhere else keeps
// its rule and severity. Only Markdown is documentation: a script runs whatever it says.

export const documentedAttack = defineRule({
  code: 'documented_attack',
  category: 'security',
  severity: 'information',
  summary:
    'An attack shown as documentation: under a heading or label that says so, in a table of examples, quoted, or in a reference of a security-review skill.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '2.0', cwe: [], review: true },
});

/** The findings that can describe text shown to teach an attack rather than text that makes one. */
const DOCUMENTABLE: ReadonlySet<string> = new Set([
  hostileInstruction.code,
  hiddenInstructions.code,
  remoteCode.code,
  riskyCommand.code,
]);

/** Words a heading or a table uses for the attacks it shows: what a section that teaches them is titled. */
const SHOWS_ATTACKS =
  /\b(?:attacks?|attackers?|exploits?|exploitable|malicious|malware|vulnerab\w*|insecure|unsafe|dangerous|injections?|payloads?|anti-?patterns?|red flags?|threats?|indicators? of compromise|exfiltrat\w*|backdoors?|phishing|jailbreaks?|(?:bad|wrong|risky) (?:examples?|practices?|patterns?|code)|what not to do|don'?ts)\b/i;

/**
 * How a label just before a code block starts when it shows a bad example ("Bad:", "Avoid:", "\u274C Wrong"), besides
 * naming an attack: a label, not a sentence that merely has "never" in it.
 */
const LABELS_BAD_EXAMPLE =
  /^[\s*_#>-]*(?:[\u274C\u2717\u26D4\u{1F6AB}]|(?:bad|wrong|avoid|don'?t|never|vulnerable|insecure|unsafe)\b)/iu;

/** What a skill whose purpose is security review says of itself, in its name or description. */
const SECURITY_PURPOSE =
  /\b(?:security|vulnerabilit\w*|pen(?:etration)?[- ]?test\w*|threat[- ]model\w*|prompt[- ]injections?|malware|exploits?|red[- ]team\w*|owasp|cves?|hardening|appsec|sast|secure (?:code|coding))\b/i;

/** A line that opens a paragraph quoting an example: what precedes a quoted attack. */
const INTRODUCES_EXAMPLE = /\b(?:for example|for instance|such as|e\.g\.|like this|like these|looks like|examples?)\b/i;

/** Whether a skill says its purpose is security review (its files then show attacks to teach them). */
export function securityPurpose(frontmatter: Record<string, unknown> | undefined): boolean {
  const said = [frontmatter?.name, frontmatter?.description].filter((value) => typeof value === 'string');
  return said.some((value) => SECURITY_PURPOSE.test(value as string));
}

/** The lines of `text` before `offset`, nearest first, up to `limit` of them. */
function linesBefore(text: TextLike, offset: number, limit: number): string[] {
  const lines: string[] = [];
  let end = text.lastIndexOf('\n', offset - 1);
  while (end > 0 && lines.length < limit) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    lines.push(text.slice(start, end).replace(/\r$/, ''));
    end = start - 1;
  }
  return lines;
}

/** The line `offset` is on. */
function lineOf(text: TextLike, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '');
}

/** The headings whose sections hold `offset` (the nearest, then each heading above it of a higher level). */
function sectionHeadings(text: TextLike, offset: number, fences: readonly Fence[]): string[] {
  const headings: string[] = [];
  let level = 7;
  let at = offset;
  // Lines are read back a bounded number at a time: a finding deep in a long file costs what its sections do.
  for (let read = 0; read < 4000 && level > 1; read++) {
    const end = text.lastIndexOf('\n', at - 1);
    if (end <= 0) break;
    const start = text.lastIndexOf('\n', end - 1) + 1;
    at = start;
    if (fences.some((fence) => fence.open.start <= start && start < (fence.close ?? fence.content).end)) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(text.slice(start, end));
    if (heading && heading[1].length < level) {
      level = heading[1].length;
      headings.push(heading[2]);
    }
  }
  return headings;
}

/**
 * Why the text at `offset` of a Markdown file reads as documentation of an attack, or undefined when it does not:
 * `reference` says the file is a reference of a security-review skill.
 */
export function whyDocumented(
  text: TextLike,
  fences: readonly Fence[],
  offset: number,
  reference: boolean,
): string | undefined {
  if (reference) return 'in a reference of a skill whose purpose is security review';
  const heading = sectionHeadings(text, offset, fences).find((title) => SHOWS_ATTACKS.test(title));
  if (heading !== undefined) return `under the heading "${heading.trim().slice(0, 60)}"`;
  const fence = fences.find((item) => item.content.start <= offset && offset < item.content.end);
  if (fence) {
    // The label a block is given: its info string, or the nearest line or two of prose above it.
    const above = linesBefore(text, fence.open.start + 1, 4).filter((line) => line.trim() !== '');
    const label = [fence.info, ...above.slice(0, 2)].find(
      (line) => SHOWS_ATTACKS.test(line) || LABELS_BAD_EXAMPLE.test(line),
    );
    return label === undefined ? undefined : `in a block labelled "${label.trim().slice(0, 60)}"`;
  }
  const line = lineOf(text, offset);
  if (/^\s*\|/.test(line)) {
    // A table row, judged with the table's header (the first row above it that is not a row).
    const above = linesBefore(text, offset, 60);
    const header = above[above.findIndex((row) => !/^\s*\|/.test(row)) - 1] ?? '';
    if (SHOWS_ATTACKS.test(line) || SHOWS_ATTACKS.test(header)) return 'in a table of examples';
  }
  if (/^\s*>/.test(line)) {
    // A quotation introduced as an example ("Attackers write things like:"), not a callout that speaks to the agent.
    const introduction = linesBefore(text, offset, 40).find((row) => !/^\s*>/.test(row) && row.trim() !== '');
    if (introduction !== undefined && (INTRODUCES_EXAMPLE.test(introduction) || SHOWS_ATTACKS.test(introduction)))
      return 'quoted as an example';
  }
  return undefined;
}

/** `findings` of a Markdown file, those that show an attack as documentation made `documented_attack`. */
export function withDocumentedAttacks(
  findings: Diagnostic[],
  text: TextLike,
  fences: readonly Fence[],
  reference: boolean,
): Diagnostic[] {
  return findings.map((item) => {
    if (!DOCUMENTABLE.has(item.code)) return item;
    const why = whyDocumented(text, fences, item.span.start, reference);
    return why === undefined
      ? item
      : {
          ...item,
          code: documentedAttack.code,
          severity: documentedAttack.severity,
          message: `Shown as documentation (${why}), not asked of the agent: ${item.message}`,
          data: { ...item.data, documents: item.code },
        };
  });
}
