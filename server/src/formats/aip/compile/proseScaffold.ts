import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { Fence } from '../../../parse/markdown/skillFile';
import { nodeSpan, pairOf } from '../../../parse/yaml/yamlNodes';
import { frontmatterOf } from '../../../forms/resultPackage';
import { readProse, type ProseOutline, type ProseStep } from './proseSteps';
import { compileTodo } from '../../../forms/compileFindings';

// What compiling a prose skill to AIP reads from it, whatever AIP version is written: the steps with their names,
// fenced blocks and the values they make and take, and the procedure's purpose, triggers and anti-patterns.

/** Words that end a name: a step's or a value's name is what comes before them. */
const STOP_WORDS = new Set([
  'with',
  'from',
  'using',
  'for',
  'to',
  'in',
  'into',
  'by',
  'as',
  'if',
  'when',
  'then',
  'and',
  'or',
  'of',
  'on',
  'at',
  'that',
  'which',
  'between',
  'per',
  'before',
  'after',
  'so',
  'until',
  'while',
  'is',
  'are',
  'be',
]);
const ARTICLES = new Set(['the', 'a', 'an', 'one', 'all', 'each', 'every', 'your', 'its', 'their', 'any', 'some']);
/**
 * How a thing is done, not what it is ("read the error messages carefully"): a name ends before it. An adverb in
 * `-ly` or a word of time, and not one of the nouns that end in `-ly`.
 */
const ADVERB = /^(?:[a-z]{3,}ly|first|again|now|later|here|there|too|also|only|instead)$/;
const LY_NOUNS = new Set([
  'reply',
  'supply',
  'assembly',
  'family',
  'anomaly',
  'ally',
  'rally',
  'monopoly',
  'butterfly',
]);
const PRONOUNS = /\b(them|it|these|those|this list|the result|the results|the list)\b/i;
const PRODUCING_VERB =
  /\b(write|create|produce|generate|draft|build|compute|list|find|collect|gather|identify|summari[sz]e|record|save|return|choose|pick|decide on|extract|prepare|make|get|fetch|read|load|determine)\s+([^.;:!?()`]+)/i;
const STRING_WORDS =
  /^(path|file|url|name|tag|version|id|message|text|summary|report|notes|note|line|title|description|answer|reply|draft|plan|branch|commit|diff|output|command|query|slug|prompt|email|code|content|markdown|document)$/;

/** Markdown as plain words: no emphasis, links as their text and target, code spans kept as text. */
export function plain(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (_, label: string, target: string) =>
      label && label !== target ? `${label} (${target})` : target,
    )
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|\s)[*_](\S(?:.*?\S)?)[*_](?=\s|$|[.,;:!?])/g, '$1$2')
    .trim();
}

export function kebab(words: string[]): string {
  return words
    .join('-')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The words of a phrase up to the first stop word after `least` words (at most `max`; articles and code left out). */
function leadingWords(text: string, max: number, least = 2): string[] {
  const words: string[] = [];
  for (const raw of plain(text)
    .replace(/`[^`]*`/g, ' ')
    .split(/\s+/)) {
    const word = raw.replace(/[^\p{L}\p{N}'-]/gu, '').toLowerCase();
    if (word === '') {
      if (words.length > 0 && /[.,;:!?\u2014\u2013()]/.test(raw)) break;
      continue;
    }
    if (ARTICLES.has(word)) continue;
    if (STOP_WORDS.has(word) && words.length >= least) break;
    if (words.length > 0 && ADVERB.test(word) && !LY_NOUNS.has(word)) break;
    words.push(word.replace(/'s$/, ''));
    if (words.length >= max || /[.,;:!?)]$/.test(raw)) break;
  }
  return words;
}

/** A value's type from its last word: plurals are lists, known nouns strings; undefined when the prose cannot tell. */
function typeOf(words: string[]): string | undefined {
  const last = words[words.length - 1] ?? '';
  if (/^(count|number|total)$/.test(last)) return 'integer';
  if (/s$/.test(last) && !/(ss|us|is|notes|status)$/.test(last)) return 'list[string]';
  if (STRING_WORDS.test(last)) return 'string';
  return undefined;
}

/** A value a step makes or takes; `type` is absent when the prose does not say. */
export interface ScaffoldValue {
  name: string;
  type?: string;
  description?: string;
}

export interface ScaffoldStep {
  name: string;
  prose: ProseStep;
  /** The fenced blocks inside the step, in order. */
  fences: Fence[];
  /** The step's Markdown without its fenced blocks. */
  text: string;
  inputs: ScaffoldValue[];
  outputs: ScaffoldValue[];
  /** Head noun of each output, for finding later mentions. */
  heads: string[];
}

export interface Scaffold {
  outline: ProseOutline;
  steps: ScaffoldStep[];
  purpose: string;
  triggerWhen: string[];
  doNotUseWhen: string[];
  antiPatterns: string[];
  /** Fenced blocks outside every step: no step runs or cites them. */
  strayFences: Fence[];
  /** The source's frontmatter without `metadata`, and the metadata a package can carry (strings only). */
  frontmatter: Record<string, unknown>;
  metadata: Record<string, string>;
  /** What could not be carried over, reported in the source. */
  findings: Diagnostic[];
}

/**
 * Names unique among those it gave and `taken`: the base, else the base with `-2`, `-3`… (a step with no name is
 * `step`).
 */
export function uniqueNamer(taken: Iterable<string> = []): (base: string) => string {
  const used = new Set(taken);
  return (base) => {
    let candidate = base || 'step';
    for (let n = 2; used.has(candidate); n++) candidate = `${base || 'step'}-${n}`;
    used.add(candidate);
    return candidate;
  };
}

/**
 * A prose skill read as the AIP compiler reads one: steps from the prose's own structure, a name and a typed output
 * from what each step makes, and inputs where a later step mentions an earlier output. What the prose does not say (a
 * value's type) is left absent for the writer to mark.
 */
export function readScaffold(analysis: AnalysisBase): Scaffold {
  const syntax = analysis.syntax!;
  const outline = readProse(syntax);
  const findings: Diagnostic[] = [];
  const uniqueName = uniqueNamer();
  const bound = new Set<number>();
  const steps: ScaffoldStep[] = outline.steps.map((prose) => {
    const fences = outline.fences.filter(
      (fence) => prose.span.start <= fence.open.start && fence.open.start < prose.span.end,
    );
    let text = prose.text;
    for (const fence of fences) {
      bound.add(fence.open.start);
      text = replaceBlock(text, syntax.text.slice(fence.open.start, fence.close?.end ?? fence.content.end), '');
    }
    return {
      name: uniqueName(kebab(leadingWords(prose.title, 4))),
      prose,
      fences,
      text,
      inputs: [],
      outputs: [],
      heads: [],
    };
  });
  for (const step of steps) {
    const made = PRODUCING_VERB.exec(plain(step.prose.title)) ?? PRODUCING_VERB.exec(plain(step.prose.text));
    const words = made ? leadingWords(made[2], 3, 1) : [];
    if (words.length > 0 && !PRONOUNS.test(words.join(' '))) {
      const type = typeOf(words);
      step.outputs.push({
        name: kebab(words),
        ...(type ? { type } : {}),
        ...(type ? {} : { description: 'TODO: the type of this value' }),
      });
      step.heads.push(words[words.length - 1].replace(/s$/, ''));
    }
  }
  // Inputs: a later step that mentions an earlier output (or says "them"/"it" right after it) consumes it.
  steps.forEach((step, index) => {
    const text = plain(step.prose.text).toLowerCase();
    const taken = new Set<string>();
    steps.slice(0, index).forEach((earlier, at) => {
      earlier.outputs.forEach((output, n) => {
        const mentioned = new RegExp(`\\b${earlier.heads[n].replace(/[^a-z0-9-]/g, '')}s?\\b`).test(text);
        const referred = at === index - 1 && PRONOUNS.test(text.slice(0, 80));
        if (
          (mentioned || referred) &&
          !taken.has(output.name) &&
          !step.outputs.some((own) => own.name === output.name)
        ) {
          taken.add(output.name);
          step.inputs.push({ name: output.name, ...(output.type ? { type: output.type } : {}) });
        }
      });
    });
  });
  const { metadata, ...frontmatter } = frontmatterOf(analysis);
  const description = typeof frontmatter.description === 'string' ? frontmatter.description : '';
  return {
    outline,
    steps,
    purpose: outline.lead ? plain(outline.lead) : description,
    triggerWhen: triggers(description, outline.loose),
    doNotUseWhen: notWhen(description, outline.loose),
    antiPatterns: outline.loose
      .filter((line) => /^(?:[-*+]\s+)?(?:\*\*)?(never|don't|do not|avoid)\b/i.test(line.text))
      .map((line) => plain(line.text.replace(/^[-*+]\s+/, '')))
      .slice(0, 20),
    strayFences: outline.fences.filter((fence) => !bound.has(fence.open.start)),
    frontmatter,
    metadata: stringMetadata(analysis, metadata, findings),
    findings,
  };
}

/** A step that chooses: its title starts with the verb of a choice. */
const CHOOSING = /^(?:choose|decide|pick|select|determine)\b/i;
/** An alternative as a list item: a label (bold, code or a few words) then what it means after `:`, `—` or ` - `. */
const ALTERNATIVE =
  /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*([^*\n]+?)\*\*|`([^`\n]+)`|([^:\n\u2013\u2014]{1,60}?))[ \t]*(?:[:\u2013\u2014]| - )[ \t]*(.*)$/gm;

/**
 * The alternatives a choosing step offers as a list ("Choose the method: - **Preview**: …, - **Production**: …"), each
 * with a kebab-case label and what it means; none unless there are at least two, with distinct labels.
 */
export function proseChoices(step: ScaffoldStep): { label: string; text: string }[] {
  if (!CHOOSING.test(plain(step.prose.title))) return [];
  const found = new Map<string, string>();
  for (const match of step.text.matchAll(ALTERNATIVE)) {
    const label = kebab(leadingWords(match[1] ?? match[2] ?? match[3], 4, 4));
    if (label !== '' && !found.has(label)) found.set(label, plain(match[4]).trim());
  }
  return found.size >= 2 ? [...found].map(([label, text]) => ({ label, text })) : [];
}

/**
 * `text` with the fenced block `raw` (as the source has it) replaced: a step's text is dedented when it is a list
 * item, so the block is found line by line whatever its indentation.
 */
export function replaceBlock(text: string, raw: string, replacement: string): string {
  const lines = raw
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const found = new RegExp(lines.join('[ \\t]*\\r?\\n[ \\t]*')).exec(text);
  return found ? text.slice(0, found.index) + replacement + text.slice(found.index + found[0].length) : text;
}

export function optional(key: string, items: string[]): Record<string, string[]> {
  return items.length > 0 ? { [key]: items } : {};
}

/**
 * When to use the skill: the description's "Use when …" clause and the bullets of a "When to use" section; at least the
 * description.
 */
function triggers(description: string, loose: { heading: string; text: string }[]): string[] {
  const found: string[] = [];
  const clause = /\bUse (?:this skill |it )?(when|for|if|whenever)\b\s*([^.]*)/i.exec(description);
  if (clause) found.push(`${clause[1][0].toUpperCase()}${clause[1].slice(1)} ${clause[2].trim()}`.trim());
  for (const line of loose)
    if (/when to use/i.test(line.heading) && !/not/i.test(line.heading) && /^[-*+]\s/.test(line.text))
      found.push(plain(line.text.slice(2)));
  return found.length > 0 ? found : [description || 'TODO: when to use this skill'];
}

function notWhen(description: string, loose: { heading: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const match of description.matchAll(/\b(?:do not|don't|not for)\b[^.]*/gi)) found.push(match[0].trim());
  for (const line of loose)
    if (/(when not to use|don't use|do not use)/i.test(line.heading) && /^[-*+]\s/.test(line.text))
      found.push(plain(line.text.slice(2)));
  return found;
}

/**
 * The source's `metadata` entries a package can carry: strings only. The Agent Skills specification makes
 * `metadata` a string→string map, and AIP's validators hold a package to it (a list carried over from a prose skill
 * was rejected upstream). Every other entry is reported where it is, and stays in the source's copy under `source/`.
 * The entry `replaced` (one the package writes anew, such as AIP 0.3's `aip`) is left out unreported.
 */
export function stringMetadata(
  analysis: AnalysisBase,
  metadata: unknown,
  findings: Diagnostic[],
  replaced?: string,
): Record<string, string> {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const kept: Record<string, string> = {};
  const node = pairOf(analysis.frontmatter?.doc.contents, 'metadata')?.value;
  for (const [key, value] of Object.entries(metadata as Record<string, unknown>)) {
    if (key === replaced) continue;
    if (typeof value === 'string') {
      kept[key] = value;
      continue;
    }
    const at = analysis.frontmatter && nodeSpan(analysis.frontmatter, pairOf(node, key)?.key);
    findings.push(
      diagnostic(
        compileTodo,
        analysis.file,
        at ?? analysis.syntax?.frontmatter?.open ?? { start: 0, end: 0 },
        `\`metadata.${key}\` is ${Array.isArray(value) ? 'a list' : value === null ? 'empty' : `a ${typeof value === 'object' ? 'map' : typeof value}`}; a package's metadata holds strings only, so it is left out (the copy of this SKILL.md in the package's source/ folder keeps it). Write it as a string to carry it.`,
      ),
    );
  }
  return kept;
}
