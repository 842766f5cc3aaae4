import * as path from 'node:path';
import evalsSchema from '../../../../schemas/agent-skills.evals.schema.json';
import queriesSchema from '../../../../schemas/agent-skills.trigger-queries.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { closestName } from '../../checks/match/nameDistance';
import { validateAgainstSchema } from '../../checks/schema/schemaValidation';
import type { GraphNode } from '../../model/skillModel';
import type { Span } from '../../parse/text/lineIndex';
import { parseYamlRegion, type YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan } from '../../parse/yaml/yamlNodes';
import { flatText, type TextLike } from '../../parse/text/textLike';
import type { FileSystem } from '../../workspace/fileSystem';
import { readText } from '../../workspace/readText';
import { defineRule } from '../../checks/engine/rule';
import { missingFile, pathEscapesSkill } from '../../checks/links/fileLinks';
import type { EvalLink } from '../../analysis/skillAnalysis';

// A skill's evals, as the Agent Skills guides lay them out: `evals/evals.json` (test cases: a prompt, what success
// looks like, input files, expectations graded against the output) and trigger query sets (`evals/*queries*.json`:
// prompts labelled with whether the skill should activate). Nothing rejects a skill for them; an eval that cannot run
// or cannot fail tells the author nothing, so every finding here is a warning, in the file it is about.

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

export const invalidTriggerQueries = defineRule({
  code: 'invalid_trigger_queries',
  category: 'companion',
  severity: 'warning',
  summary: 'A trigger query set (`evals/*queries*.json`) of the wrong shape, or with a query twice.',
  stability: 'stable',
  formats: 'all',
});

export const triggerQueriesOneSided = defineRule({
  code: 'trigger_queries_one_sided',
  category: 'companion',
  severity: 'warning',
  summary: 'A trigger query set whose queries all should trigger the skill, or none does.',
  stability: 'stable',
  formats: 'all',
});

/** The test cases of a skill, relative to its folder. */
export const EVALS_FILE = 'evals/evals.json';

/** A trigger query set: a JSON file in `evals/` named for queries (`eval_queries.json`, `train_queries.json`). */
const QUERY_FILE = /^[^/]*quer(?:y|ies)[^/]*\.json$/i;

/** Whether `file` is one of the eval files of the skill in `dir` (its test cases or a trigger query set). */
export function isEvalFile(dir: string, file: string): boolean {
  const relative = path.relative(dir, file).split(path.sep).join('/');
  return relative === EVALS_FILE || (relative.startsWith('evals/') && QUERY_FILE.test(relative.slice(6)));
}

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

/** A test case that names a step in an expectation: the step it exercises, explicitly. */

/** The findings of a skill's eval files, their texts (for their lines), and the steps its test cases exercise. */
export function checkEvalFiles(context: EvalContext): {
  diagnostics: Diagnostic[];
  sources: [string, string][];
  links: EvalLink[];
} {
  const evalsDir = path.join(context.dir, 'evals');
  // Most skills have no `evals/`: the folder's listing says so without listing a folder that is not there.
  const hasEvals = context.fs.readDirectory(context.dir).some((entry) => entry.name === 'evals');
  const names = (hasEvals ? context.fs.readDirectory(evalsDir) : [])
    .filter((entry) => entry.kind === 'file' && (entry.name === 'evals.json' || QUERY_FILE.test(entry.name)))
    .map((entry) => entry.name)
    .sort();
  const diagnostics: Diagnostic[] = [];
  const sources: [string, string][] = [];
  const links: EvalLink[] = [];
  for (const name of names) {
    const file = path.join(evalsDir, name);
    const read = readJson(context.fs, file);
    if (read.text !== undefined) sources.push([file, read.text]);
    const found = [...read.problems];
    if (read.yaml && read.value !== undefined)
      found.push(
        ...(name === 'evals.json'
          ? checkCases(context, file, read.yaml, read.value, links)
          : checkQueries(file, read.yaml, read.value)),
      );
    // Their spans say which file they are in, as every span outside SKILL.md does.
    diagnostics.push(...found.map((item) => ({ ...item, span: { ...item.span, file } })));
  }
  return { diagnostics, sources, links };
}

const START: Span = { start: 0, end: 0 };

/**
 * A JSON file read for checking: JSON's own parse decides whether it is valid (YAML would accept more), and the YAML
 * reading of the same text places each value.
 */
function readJson(
  fs: FileSystem,
  file: string,
): { text?: string; yaml?: YamlSyntax; value?: unknown; problems: Diagnostic[] } {
  const code = path.basename(file) === 'evals.json' ? invalidEvals : invalidTriggerQueries;
  const read = readText(fs, file);
  if (read.kind !== 'text')
    return read.kind === 'missing'
      ? { problems: [] }
      : { problems: [diagnostic(code, file, START, `${path.basename(file)} is not text that can be read.`)] };
  try {
    const value: unknown = JSON.parse(read.text);
    return {
      text: read.text,
      yaml: parseYamlRegion(read.text, { start: 0, end: read.text.length }),
      value,
      problems: [],
    };
  } catch (error) {
    const at = Number(/position (\d+)/.exec((error as Error).message)?.[1] ?? 0);
    const span = { start: Math.min(at, read.text.length), end: Math.min(at + 1, read.text.length) };
    return {
      text: read.text,
      problems: [
        diagnostic(
          code,
          file,
          span,
          `${path.basename(file)} is not valid JSON, so no eval tool can read it: ${(error as Error).message}`,
        ),
      ],
    };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function spanAt(yaml: YamlSyntax, at: (string | number)[]): Span {
  const found = nodeAtPath(yaml, at);
  return (found.depth === at.length ? nodeSpan(yaml, found.node) : undefined) ?? START;
}

function checkCases(
  context: EvalContext,
  file: string,
  yaml: YamlSyntax,
  value: unknown,
  links: EvalLink[],
): Diagnostic[] {
  const diagnostics = validateAgainstSchema(evalsSchema, value, {
    file,
    yaml,
    rootSpan: START,
    defaultRule: invalidEvals,
    rootName: EVALS_FILE,
  });
  if (!isRecord(value)) return diagnostics;
  if (typeof value.skill_name === 'string' && context.name !== undefined && value.skill_name !== context.name)
    diagnostics.push(
      diagnostic(
        invalidEvals,
        file,
        spanAt(yaml, ['skill_name']),
        `\`skill_name\` is "${value.skill_name}", but this skill is "${context.name}": the runs would load another skill.`,
      ),
    );
  const cases = Array.isArray(value.evals) ? value.evals : [];
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

function checkQueries(file: string, yaml: YamlSyntax, value: unknown): Diagnostic[] {
  const diagnostics = validateAgainstSchema(queriesSchema, value, {
    file,
    yaml,
    rootSpan: START,
    defaultRule: invalidTriggerQueries,
    rootName: path.basename(file),
  });
  if (!Array.isArray(value)) return diagnostics;
  const seen = new Map<string, number>();
  let positive = 0;
  let negative = 0;
  value.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    if (entry.should_trigger === true) positive++;
    if (entry.should_trigger === false) negative++;
    if (typeof entry.query !== 'string') return;
    const key = entry.query.trim().replace(/\s+/g, ' ').toLowerCase();
    const first = seen.get(key);
    if (first !== undefined)
      diagnostics.push(
        diagnostic(
          invalidTriggerQueries,
          file,
          spanAt(yaml, [index, 'query']),
          `The same query as item ${first + 1}: it counts twice toward the trigger rate and tests nothing new.`,
        ),
      );
    else seen.set(key, index);
  });
  if (positive + negative > 0 && (positive === 0 || negative === 0))
    diagnostics.push(
      diagnostic(
        triggerQueriesOneSided,
        file,
        // The list's opening bracket: the finding is about the whole set.
        { start: spanAt(yaml, []).start, end: spanAt(yaml, []).start + 1 },
        negative === 0
          ? `All ${positive} queries should trigger the skill: with no query it should stay out of (a near miss), a description that fires on everything passes. Add queries with \`"should_trigger": false\`.`
          : `No query should trigger the skill: a description that never fires passes. Add queries with \`"should_trigger": true\`.`,
      ),
    );
  return diagnostics;
}
