import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { GraphNode } from '../../model/skillModel';
import { declaredArguments } from '../../parse/markdown/argumentPlaceholders';
import type { Span } from '../../parse/text/lineIndex';
import type { ParseCache } from '../../parse/parseCache';
import { outsideFences, parseSkillFile, type Fence } from '../../parse/markdown/skillFile';
import type { TextLike } from '../../parse/text/textLike';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf } from '../../parse/yaml/yamlNodes';
import { rememberedIn } from '../../workspace/diskSnapshot';
import type { FileSystem } from '../../workspace/fileSystem';
import {
  encodedText,
  encodedTextFindings,
  hiddenCommentFindings,
  hiddenInstructions,
  hiddenUnicode,
  hiddenUnicodePerKind,
  invisibleCharacters,
} from './hiddenText';
import { hostileInstruction, hostileInstructions, remoteInstructions } from './hostileInstructions';
import { allowedTools, grantedCommands, unrestrictedShell } from './grantedCommands';
import { fencedCommands, riskyExecution, remoteCode, riskyCommand, persistence } from './riskyExecution';
import { officialInstaller, skillPublishers, withOfficialInstallers } from './officialInstallers';
import { argumentsInCommand, invocationCommand, invocationFindings, shownCommandRuns } from './invocationCommands';
import { pythonEffects } from './pythonEffects';
import { javascriptEffects } from './javascriptEffects';
import { mayHaveEffects } from './scriptEffects';
import { parseJavaScript } from '../../parse/javascript/javascript';
import { committedSecret, committedSecrets, LOOK_AHEAD, oncePerSecret, secretAssignment } from './secrets';
import type { ReusedLineScan } from './reusedLineScan';
import { hookFindings, hookRunsCommand } from './hookCommands';
import { documentedAttack, securityPurpose, withDocumentedAttacks } from './documentedAttacks';
import { MAX_BYTES, MAX_FILES, skillTexts, type Placed, type SkillText, type Unread } from './skillTexts';
import { defineRule } from '../engine/rule';
import { modelOpinion } from './modelOpinion';

// What a skill from a stranger may hide, found in every text file of the skill with its exact place: hidden text,
// instructions against the user, risky commands (on the step that runs them, in a graph), committed secrets, broad
// grants. Files are read, never run; links are not followed out of the folder; every read is bounded.

export const auditIncomplete = defineRule({
  code: 'audit_incomplete',
  category: 'security',
  severity: 'information',
  summary: 'A text file of the skill the security rules did not read: too large, or past the files they read.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '1.0', cwe: [], review: true },
});

/**
 * The security rules, as this family declares them (the catalog finds them by their `security` rank): what the
 * configuration's `security` preset sets.
 */
export const SECURITY_FAMILY = [
  hiddenUnicode,
  hiddenInstructions,
  encodedText,
  hostileInstruction,
  remoteCode,
  riskyCommand,
  committedSecret,
  unrestrictedShell,
  hookRunsCommand,
  invocationCommand,
  shownCommandRuns,
  argumentsInCommand,
  auditIncomplete,
  secretAssignment,
  officialInstaller,
  persistence,
  documentedAttack,
  modelOpinion,
] as const;

export interface SecurityContext {
  fs: FileSystem;
  dir: string;
  /** SKILL.md, its text as the analysis reads it (the editor's, on a keystroke), and where its body is. */
  file: string;
  source: TextLike;
  body: Span;
  /** Its fenced blocks, as its reader found them. */
  fences: Fence[];
  frontmatter?: { yaml: YamlSyntax; value: Record<string, unknown> };
  /** The skill's steps: a risky script is reported on each step that runs it. */
  nodes: GraphNode[];
  /**
   * What the last analysis of this skill left (the language server's, which analyses a skill on every keystroke in
   * SKILL.md while the rest of its text and its other files stay as they were); none in a run that reads each file
   * once.
   */
  reused?: { files: ParseCache; lines: ReusedLineScan };
}

/** What the rules that read a line at a time find in `text`, whose first character is at `offset` in its file. */
function lineFindings(file: string, text: string, offset: number): Diagnostic[] {
  const found = [
    ...invisibleCharacters(file, text),
    ...encodedTextFindings(file, text),
    ...committedSecrets(file, text),
  ];
  if (offset !== 0)
    for (const item of found)
      item.span = { ...item.span, start: item.span.start + offset, end: item.span.end + offset };
  return found;
}

/** Parts of a text, each with its own text sliced out. */
function placed(source: TextLike, spans: Span[]): Placed[] {
  return spans.map((span) => ({ start: span.start, text: source.slice(span.start, span.end) }));
}

/**
 * The rules that read Markdown as Markdown: comments, prose (outside the fenced blocks), fenced commands; what they
 * find in text that shows an attack to teach it, as documentation (`reference`: the file is a reference of a
 * security-review skill).
 */
function markdownFindings(file: string, source: TextLike, region: Span, fences: Fence[], reference: boolean) {
  const prose = placed(source, outsideFences(region, fences));
  return withDocumentedAttacks(
    [
      ...hiddenCommentFindings(file, source, fences),
      ...hostileInstructions(file, prose),
      ...remoteInstructions(file, prose),
      ...riskyExecution(file, fencedCommands(source, fences)),
    ],
    source,
    fences,
    reference,
  );
}

/** A Python script by its name or its first line (a file of `scripts/` may have no extension). */
const PYTHON = /\.py$/i;
const PYTHON_SHEBANG = /^#![^\n]*\bpython/;
const JAVASCRIPT = /\.(?:js|mjs|cjs|ts|mts|cts)$/i;
const NODE_SHEBANG = /^#![^\n]*\bnode\b/;
const POSIX_SCRIPT = /\.(?:sh|bash|zsh)$/i;

/**
 * What a script does: Python and JavaScript read from their syntax trees, for what flows from where to where (read as
 * shell, every string and comment would look like a command); any other script, or TypeScript acorn cannot read (its
 * type annotations), as shell, a line at a time.
 */
function codeFindings(file: string, text: string): Diagnostic[] {
  if (PYTHON.test(file) || PYTHON_SHEBANG.test(text)) return mayHaveEffects(text) ? pythonEffects(file, text) : [];
  const javascript = JAVASCRIPT.test(file) || NODE_SHEBANG.test(text);
  if (javascript && !mayHaveEffects(text)) return [];
  const tree = javascript ? parseJavaScript(text) : undefined;
  if (tree) return javascriptEffects(file, text, tree);
  // Only a POSIX shell's script is read by the shell's parser; PowerShell, batch and other languages a line at a time.
  return riskyExecution(file, [{ start: 0, text, shell: POSIX_SCRIPT.test(file) }]);
}

function scanText(item: SkillText, securityReview: boolean): Diagnostic[] {
  const { file, text, kind } = item;
  const found = oncePerSecret(hiddenUnicodePerKind(lineFindings(file, text, 0), text), text);
  if (kind === 'code') found.push(...codeFindings(file, text));
  if (kind === 'markdown') {
    // Fences are found as the SKILL.md reader finds them.
    const { body, fences } = parseSkillFile(text);
    found.push(...markdownFindings(file, text, body, fences, securityReview));
  }
  return found;
}

/** The security findings of a skill, and the texts of the files other than SKILL.md they are in (for their lines). */
export function checkSecurity(context: SecurityContext): { diagnostics: Diagnostic[]; sources: [string, string][] } {
  const { file, source, body, fences, frontmatter, reused } = context;
  // Lines are read with what follows them (LOOK_AHEAD), for the findings that start on them.
  const readLines = (from: number, to: number) =>
    lineFindings(file, source.slice(from, to + LOOK_AHEAD), from).filter((found) => found.span.start < to);
  const lines = reused ? reused.lines.scan(file, source, readLines, LOOK_AHEAD) : readLines(0, source.length);
  const own = [
    // Merged after the scan: a finding per kind names places across the file, which no line read alone sees.
    ...oncePerSecret(hiddenUnicodePerKind(lines, source), source),
    ...markdownFindings(file, source, body, fences, false),
    ...(frontmatter ? hostileDescription(file, source, frontmatter) : []),
    ...invocationFindings(file, source, body, fences, declaredArguments(frontmatter?.value.arguments)),
  ];
  // Read once for as long as the disk is a snapshot (the language server's view of the folder, across keystrokes).
  const { texts, unread } = rememberedIn(context.fs, 'security', context.dir, 'texts', () =>
    skillTexts(context.fs, context.dir),
  );
  // Findings are shared by the analyses that reuse them, so each analysis gets its own copies.
  const publishers = skillPublishers(frontmatter?.value);
  // A security review's references show attacks to teach them; its SKILL.md is what the agent is asked to do.
  const securityReview = securityPurpose(frontmatter?.value);
  const others = withOfficialInstallers(
    texts.flatMap((item) =>
      (reused
        ? reused.files.memo(`security-${item.kind}-${securityReview}`, item.file, item.text, () =>
            scanText(item, securityReview),
          )
        : scanText(item, securityReview)
      ).map((found) => ({ ...found })),
    ),
    publishers,
  );
  // A risky script is the step's risk too: reported where the step names it (at the script's first risk).
  const risky = new Map<string, Diagnostic>();
  for (const item of others)
    if ((item.code === remoteCode.code || item.code === riskyCommand.code) && !risky.has(item.file))
      risky.set(item.file, item);
  const onSteps =
    risky.size === 0
      ? []
      : context.nodes.flatMap((node) => {
          const item = node.script && risky.get(path.join(context.dir, ...node.script.path.split('/')));
          return item
            ? [
                // The script's finding, placed where the step names the script: the same rule and severity.
                {
                  code: item.code,
                  severity: item.severity,
                  message: `Step \`${node.id}\` runs \`${node.script!.path}\`, which ${String(item.data?.risk ?? 'runs a risky command')}; see the finding in the script.`,
                  file,
                  span: node.script!.span,
                  data: { risk: item.data?.risk },
                },
              ]
            : [];
        });
  // Spans in SKILL.md carry no file, as every SKILL.md span.
  const inSkill = withOfficialInstallers(own, publishers).map((item) => ({
    ...item,
    span: { start: item.span.start, end: item.span.end },
  }));
  const withFindings = new Set(others.map((item) => item.file));
  return {
    diagnostics: [
      ...inSkill,
      ...onSteps,
      ...others,
      ...(frontmatter ? grants(context, frontmatter) : []),
      ...(frontmatter ? hookFindings(file, context.dir, source, frontmatter.yaml, frontmatter.value.hooks, risky) : []),
      ...unaudited(context, unread),
    ],
    sources: texts.filter((item) => withFindings.has(item.file)).map((item) => [item.file, item.text]),
  };
}

/**
 * What the bounds on reading left out, said rather than passed over: an audit that silently skips the 201st file, or
 * one large file, is one a skill could hide behind. A file too large is named at its start; where the count stopped,
 * at the top of SKILL.md.
 */
function unaudited(context: SecurityContext, unread: Unread): Diagnostic[] {
  const start = { start: 0, end: 0 };
  const shown = (file: string) => path.relative(context.dir, file).split(path.sep).join('/');
  return [
    ...unread.tooLarge.map(({ file, size }) =>
      diagnostic(
        auditIncomplete,
        file,
        start,
        `\`${shown(file)}\` was not audited: at ${Math.ceil(size / 1024)} KB it is past the ${MAX_BYTES / 1024} KB the security rules read of a file. Read it before you trust the skill.`,
      ),
    ),
    ...(unread.firstPastCount
      ? [
          diagnostic(
            auditIncomplete,
            context.file,
            start,
            `The security rules read ${MAX_FILES} text files of this skill and stopped before \`${shown(unread.firstPastCount)}\`: it and the files after it (deeper, or later by name) were not audited.`,
          ),
        ]
      : []),
  ];
}

/**
 * A description that turns the agent on its user. Read on its value first: only a description that does has its place
 * found in the YAML (whose nodes most frontmatters are never parsed into).
 */
function hostileDescription(
  file: string,
  source: TextLike,
  { yaml, value }: { yaml: YamlSyntax; value: Record<string, unknown> },
): Diagnostic[] {
  const description = value.description;
  if (typeof description !== 'string') return [];
  if (hostileInstructions(file, [{ start: 0, text: description }]).length === 0) return [];
  const span = nodeSpan(yaml, pairOf(yaml.doc.contents, 'description')?.value);
  return span ? hostileInstructions(file, [{ start: span.start, text: source.slice(span.start, span.end) }]) : [];
}

/**
 * What `allowed-tools: Bash` could say instead: the programs the skill's commands run (`programs`; undefined when one
 * of them runs anything, a shell or an interpreter), or, when its text shows no command, that it may need no shell.
 */
function narrowerGrant(programs: string[] | undefined): string {
  const any = '`allowed-tools` lets the skill run any shell command without asking';
  if (programs === undefined || programs.length > 6)
    return `${any}. Grant the commands it needs (\`Bash(git:*)\`), so anything else still asks the user.`;
  if (programs.length === 0)
    return `${any}, and no command block of the skill runs one. Remove \`Bash\` if it needs none, or grant the commands it runs (\`Bash(git:*)\`), so anything else still asks the user.`;
  const listed = programs.map((program) => `\`${program}\``).join(', ');
  return `${any}, but its commands use only ${listed}. Grant those: \`${programs.map((program) => `Bash(${program}:*)`).join(' ')}\`.`;
}

/** `allowed-tools` granting any shell command: what a skill may run unasked. */
function grants(
  context: SecurityContext,
  { yaml, value }: { yaml: YamlSyntax; value: Record<string, unknown> },
): Diagnostic[] {
  const findings: Diagnostic[] = [];
  if (allowedTools(value['allowed-tools']).some((tool) => /^(?:\*|Bash(?:\(\*(?::\*)?\))?)$/.test(tool))) {
    const programs = grantedCommands(context.fences, context.source);
    const span = nodeSpan(yaml, pairOf(yaml.doc.contents, 'allowed-tools')?.value);
    if (span) findings.push(diagnostic(unrestrictedShell, context.file, span, narrowerGrant(programs)));
  }
  return findings;
}
