import * as path from 'node:path';
import { listed } from '../../checks/engine/wording';
import evalsSchema from '../../../../schemas/agent-skills.evals.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { closestName } from '../../checks/match/nameDistance';
import { validateAgainstSchema } from '../../checks/schema/schemaValidation';
import type { GraphNode } from '../../model/skillModel';
import type { Span } from '../../parse/text/lineIndex';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan } from '../../parse/yaml/yamlNodes';
import { flatText, type TextLike } from '../../parse/text/textLike';
import type { FileSystem } from '../../workspace/fileSystem';
import { readText } from '../../workspace/readText';
import { defineRule } from '../../checks/engine/rule';
import { missingFile, pathEscapesSkill } from '../../checks/links/fileLinks';
import type { EvalLink } from '../../analysis/skillAnalysis';
import { appendTo } from '../../listMap';

// The test cases of a skill's `evals/evals.json` (evalFiles.ts finds and reads it): their shape, ids and input files,
// and what their expectations name (the skill's steps, the files a run makes); and where a value of an eval file is.

export const invalidEvals = defineRule({
  code: 'invalid_evals',
  category: 'companion',
  severity: 'warning',
  summary: "A skill's `evals/evals.json` that eval tools cannot run as written: its shape, ids, `skill_name`.",
  stability: 'stable',
  formats: 'all',
});

export const evalUnknownTarget = defineRule({
  code: 'eval_unknown_target',
  category: 'companion',
  severity: 'warning',
  summary: 'An eval expectation names a step the skill does not have, or a file nothing says it makes.',
  stability: 'stable',
  formats: 'all',
});

/** The test cases of a skill, relative to its folder. */
export const EVALS_FILE = 'evals/evals.json';

export interface EvalContext {
  fs: FileSystem;
  dir: string;
  /** The skill's `name`, which `skill_name` should be. */
  name?: string;
  /** The skill's steps, which an expectation may name. */
  nodes: GraphNode[];
  /** SKILL.md's text (the editor's, made one string only when an eval asks what the skill mentions). */
  skillText: TextLike;
}

export const START: Span = { start: 0, end: 0 };

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function spanAt(yaml: YamlSyntax, at: (string | number)[]): Span {
  const found = nodeAtPath(yaml, at);
  return (found.depth === at.length ? nodeSpan(yaml, found.node) : undefined) ?? START;
}

export function checkCases(
  context: EvalContext,
  file: string,
  yaml: YamlSyntax,
  value: unknown,
  links: EvalLink[],
): Diagnostic[] {
  // A file with no `evals` at all is not test cases gone wrong but something else: one finding says what it lacks.
  // (A trigger query set under this name never gets here: evalFiles.ts reads it as one.)
  if (!isRecord(value) || !('evals' in value))
    return [diagnostic(invalidEvals, file, isRecord(value) ? START : spanAt(yaml, []), unrecognised(value))];
  const cases = Array.isArray(value.evals) ? value.evals : [];
  const diagnostics = oneFindingPerKind(
    validateAgainstSchema(evalsSchema, value, {
      file,
      yaml,
      rootSpan: START,
      defaultRule: invalidEvals,
      rootName: EVALS_FILE,
    }),
    (indices) => {
      const ids = indices.map((index) => caseId(cases[index])).filter((id) => id !== undefined);
      return ids.length === indices.length
        ? `cases ${listedNames(ids)}`
        : `items ${listedNames(indices.map((index) => String(index + 1)))} of \`evals\``;
    },
  );
  if (typeof value.skill_name === 'string' && context.name !== undefined && value.skill_name !== context.name)
    diagnostics.push(
      diagnostic(
        invalidEvals,
        file,
        spanAt(yaml, ['skill_name']),
        `\`skill_name\` is "${value.skill_name}", but this skill is "${context.name}": the runs would load another skill.`,
      ),
    );
  const seen = new Set<string>();
  const known = new KnownNames(context);
  cases.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const id = typeof entry.id === 'number' || typeof entry.id === 'string' ? String(entry.id) : undefined;
    if (id !== undefined && seen.has(id))
      diagnostics.push(
        diagnostic(
          invalidEvals,
          file,
          spanAt(yaml, ['evals', index, 'id']),
          `Another case already has the id ${JSON.stringify(entry.id)}; each case's runs are kept under its id, so one would overwrite the other.`,
        ),
      );
    if (id !== undefined) seen.add(id);
    const files = Array.isArray(entry.files) ? entry.files : [];
    files.forEach((input, at) => {
      if (typeof input !== 'string') return;
      const span = spanAt(yaml, ['evals', index, 'files', at]);
      if (path.isAbsolute(input) || input.split(/[\\/]/).includes('..'))
        diagnostics.push(
          diagnostic(
            pathEscapesSkill,
            file,
            span,
            `\`${input}\` is outside the skill folder; an eval's input files travel with the skill, under it (\`evals/files/…\`).`,
          ),
        );
      else if (context.fs.stat(path.join(context.dir, ...input.split('/')))?.kind !== 'file')
        diagnostics.push(
          diagnostic(
            missingFile,
            file,
            span,
            `The input file \`${input}\` does not exist in the skill folder, so the case cannot run as written.`,
          ),
        );
    });
    const own = [entry.prompt, entry.expected_output, ...files].filter((text) => typeof text === 'string').join('\n');
    for (const key of ['expectations', 'assertions'] as const) {
      const checks = Array.isArray(entry[key]) ? entry[key] : [];
      checks.forEach((check, at) => {
        if (typeof check !== 'string') return;
        for (const step of stepsNamed(check))
          if (
            id !== undefined &&
            known.steps.includes(step) &&
            !links.some((link) => link.step === step && link.id === id)
          )
            links.push({ step, id, span: { ...spanAt(yaml, ['evals', index, 'id']), file } });
        const problem = unknownTarget(check, known, own);
        if (problem)
          diagnostics.push(diagnostic(evalUnknownTarget, file, spanAt(yaml, ['evals', index, key, at]), problem));
      });
    }
  });
  return diagnostics;
}

function unrecognised(value: unknown): string {
  const keys = isRecord(value) ? Object.keys(value) : [];
  const what =
    keys.length > 0
      ? `: its keys are ${listedNames(keys.map((key) => `\`${key}\``))}`
      : Array.isArray(value)
        ? ': it is a list, and none of its items says `should_trigger`'
        : '';
  return `${EVALS_FILE} has no \`evals\` list of test cases (each with \`id\`, \`prompt\` and \`expected_output\`), and it is not a trigger query set either (a list of queries, each with \`should_trigger\`)${what}. Eval tools find nothing to run in it.`;
}

const caseId = (entry: unknown): string | undefined =>
  isRecord(entry) && (typeof entry.id === 'number' || typeof entry.id === 'string')
    ? typeof entry.id === 'number'
      ? String(entry.id)
      : JSON.stringify(entry.id)
    : undefined;

/** Names in a sentence: all of up to four, else the first three "and N more". */
export function listedNames(names: string[]): string {
  return listed(names.length > 4 ? [...names.slice(0, 3), `${names.length - 3} more`] : names);
}

/** A schema finding about one item of a list: "`evals[5].prompt` must not be empty. …", "`[3]` is missing …". */
const ITEM_MESSAGE = /^`([\w-]*)\[(\d+)\]((?:\.[\w-]+|\[\d+\])*)` ([^]*)$/;

/**
 * One finding per kind of problem that several items of a list share ("cases 1, 2, 5 and 12 more have no
 * `expected_output`"), not one per item: put at the first of the findings it replaces, so a baseline made before
 * still accepts it. A problem only one item has keeps its own finding. `name` says which items, by their indices.
 */
export function oneFindingPerKind(found: Diagnostic[], name: (indices: number[]) => string): Diagnostic[] {
  const kinds = new Map<string, { finding: Diagnostic; index: number; field: string; reason: string }[]>();
  for (const finding of found) {
    const match = ITEM_MESSAGE.exec(finding.message);
    if (!match) continue;
    const [, list, index, field, reason] = match;
    const kind = [finding.code, list, field.replace(/\[\d+\]/g, '[]'), reason].join('\n');
    appendTo(kinds, kind, { finding, index: Number(index), field, reason });
  }
  // Each finding merged away, to its replacement (the first of a kind) or to nothing.
  const merged = new Map<Diagnostic, Diagnostic | undefined>();
  for (const items of kinds.values()) {
    const indices = [...new Set(items.map((item) => item.index))].sort((a, b) => a - b);
    if (indices.length < 2) continue;
    const first = items.reduce((a, b) => (b.finding.span.start < a.finding.span.start ? b : a));
    for (const item of items) merged.set(item.finding, undefined);
    merged.set(first.finding, { ...first.finding, message: sharedMessage(name(indices), first.field, first.reason) });
  }
  return found.flatMap((finding) => {
    if (!merged.has(finding)) return [finding];
    const replacement = merged.get(finding);
    return replacement ? [replacement] : [];
  });
}

/** The problem of several items, from the words the schema says it in for one. */
function sharedMessage(who: string, field: string, reason: string): string {
  const Who = who.charAt(0).toUpperCase() + who.slice(1);
  const missing = /^is missing the required key (`[^`]+`)\.\s*([^]*)$/.exec(reason);
  if (missing && !field) return `${Who} have no ${missing[1]}.${missing[2] ? ` ${missing[2]}` : ''}`;
  if (!field) return `${Who} ${reason.replace(/^is /, 'are ').replace(/^has /, 'have ')}`;
  return `In ${who}, \`${field.replace(/^\./, '').replace(/\[\d+\]/g, '[…]')}\` ${reason}`;
}

/** What a skill mentions: its steps, and (read when first asked) the words of its own files. */
class KnownNames {
  private text: string | undefined;

  constructor(private readonly context: EvalContext) {}

  get steps(): string[] {
    return this.context.nodes.map((node) => node.id);
  }

  /** SKILL.md, the names of the skill's files, and its scripts and references (where a file it makes is named). */
  get words(): string {
    if (this.text === undefined) {
      const parts = [flatText(this.context.skillText)];
      const pending = [this.context.dir];
      let read = 0;
      while (pending.length > 0 && read < MAX_FILES_READ) {
        const dir = pending.pop()!;
        for (const entry of this.context.fs.readDirectory(dir)) {
          const full = path.join(dir, entry.name);
          if (entry.kind === 'directory' && entry.name !== 'evals' && !entry.name.startsWith('.')) pending.push(full);
          if (entry.kind !== 'file') continue;
          parts.push(entry.name);
          if (!/^(scripts|references|assets)$/.test(path.basename(path.dirname(full)))) continue;
          const file = readText(this.context.fs, full);
          if (file.kind === 'text' && file.text.length <= MAX_TEXT_READ) parts.push(file.text);
          read++;
        }
      }
      this.text = parts.join('\n');
    }
    return this.text;
  }
}

/** At most this many of a skill's files are read for the file names it makes, each at most this long. */
const MAX_FILES_READ = 200;
const MAX_TEXT_READ = 256 * 1024;

/** A step an expectation names: "step `x`", "the `x` step". */
const STEP_NAMED = /\bstep\s+`([^`]+)`|`([^`]+)`\s+step\b/gi;
function stepsNamed(check: string): string[] {
  return [...check.matchAll(STEP_NAMED)].map((match) => match[1] ?? match[2]);
}

/** A file an expectation names, in backticks: a name with an extension (`report.md`, `outputs/chart.png`). */
const FILE_NAMED = /`((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})`/g;

/**
 * Why an expectation names what cannot be: a step the skill does not have, or a file that neither the skill (its
 * SKILL.md, scripts and references) nor the case's own prompt mentions, which no run can be expected to make.
 */
function unknownTarget(check: string, known: KnownNames, own: string): string | undefined {
  if (known.steps.length > 0)
    for (const step of stepsNamed(check)) {
      if (known.steps.includes(step)) continue;
      const meant = closestName(step, known.steps);
      return `The expectation names the step \`${step}\`, which the skill does not have${meant ? `; did you mean \`${meant}\`?` : '.'}`;
    }
  for (const match of check.matchAll(FILE_NAMED)) {
    const base = path.posix.basename(match[1]);
    if (/^https?:/.test(match[1]) || own.includes(base) || known.words.includes(base)) continue;
    return `The expectation names \`${match[1]}\`, which neither the skill nor this case's prompt mentions, so no run can be expected to make it. Name the output the skill makes, or say in the prompt what to call it.`;
  }
  return undefined;
}
