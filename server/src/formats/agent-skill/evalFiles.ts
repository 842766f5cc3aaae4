import * as path from 'node:path';
import queriesSchema from '../../../../schemas/agent-skills.trigger-queries.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { validateAgainstSchema } from '../../checks/schema/schemaValidation';
import { parseYamlRegion, type YamlSyntax } from '../../parse/yaml/yamlSyntax';
import type { FileSystem } from '../../workspace/fileSystem';
import { readText } from '../../workspace/readText';
import { defineRule } from '../../checks/engine/rule';
import type { EvalLink } from '../../analysis/skillAnalysis';
import { mapEntries, nodeAtPath, nodeSpan } from '../../parse/yaml/yamlNodes';
import {
  checkCases,
  EVALS_FILE,
  invalidEvals,
  isRecord,
  listedNames,
  oneFindingPerKind,
  spanAt,
  START,
  type EvalContext,
} from './evalCases';

// A skill's evals, as the Agent Skills guides lay them out: `evals/evals.json` (test cases: a prompt, what success
// looks like, input files, expectations graded against the output) and trigger query sets (`evals/*queries*.json`:
// prompts labelled with whether the skill should activate; some tools write such a set as `evals/evals.json`, and it
// is read as the set it is). Nothing rejects a skill for them; an eval that cannot run or cannot fail tells the
// author nothing, so every finding here is a warning, in the file it is about.
// This file finds and reads them and checks the trigger query sets; evalCases.ts checks the test cases.

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

/**
 * A trigger query set: a JSON file in `evals/` named for queries (`eval_queries.json`, `train_queries.json`), or as
 * Anthropic's skill-creator names the set it reviews and runs: `trigger-eval.json`, and `eval_set.json` as its review
 * page exports it (a browser may number a second download: `eval_set (1).json`, `eval_set-2.json`).
 */
const QUERY_FILE = /^(?:[^/]*quer(?:y|ies)[^/]*|trigger[-_]evals?|eval[-_]set(?:[-_ ]?\(?\d+\)?)?)\.json$/i;

/** Whether `file` is one of the eval files of the skill in `dir` (its test cases or a trigger query set). */
export function isEvalFile(dir: string, file: string): boolean {
  const relative = path.relative(dir, file).split(path.sep).join('/');
  return relative === EVALS_FILE || (relative.startsWith('evals/') && QUERY_FILE.test(relative.slice(6)));
}

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
    if (read.yaml && read.value !== undefined) {
      // What a file holds decides how it is read, whatever its name: routing cases (queries labelled
      // `should_trigger`) are a trigger query set even in `evals.json`, as some tools write them.
      const lists = triggerLists(read.value, name !== 'evals.json');
      found.push(
        ...(name === 'evals.json' && lists.length === 0
          ? checkCases(context, file, read.yaml, read.value, links)
          : checkQueries(file, read.yaml, read.value, lists)),
      );
    }
    // Their spans say which file they are in, as every span outside SKILL.md does.
    diagnostics.push(...found.map((item) => ({ ...item, span: { ...item.span, file } })));
  }
  return { diagnostics, sources, links };
}

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

/** Where tools write a trigger query's text: `query` (the Agent Skills guides, skill-creator), `prompt`, `input`. */
const QUERY_KEYS = ['query', 'prompt', 'input'] as const;

const labelsTrigger = (list: unknown): list is unknown[] =>
  Array.isArray(list) && list.some((item) => isRecord(item) && 'should_trigger' in item);

/**
 * Where the lists of trigger queries of a file are: the file itself, when it is a list of queries labelled
 * `should_trigger` (any list, in a file named as a trigger query set), or each such list in a map
 * (`{ "evals": [...] }`, `{ "evaluations": [...] }`).
 */
function triggerLists(value: unknown, named: boolean): string[][] {
  if (Array.isArray(value)) return named || labelsTrigger(value) ? [[]] : [];
  return isRecord(value)
    ? Object.keys(value)
        .filter((key) => labelsTrigger(value[key]))
        .map((key) => [key])
    : [];
}

function checkQueries(file: string, yaml: YamlSyntax, value: unknown, lists: string[][]): Diagnostic[] {
  const target = {
    file,
    yaml,
    rootSpan: START,
    defaultRule: invalidTriggerQueries,
    rootName: path.basename(file),
  };
  // Not a list, nor a map holding one: what the schema says of its root is all there is to say.
  if (lists.length === 0) return validateAgainstSchema(queriesSchema, value, target);
  const found: Diagnostic[] = [];
  const duplicates: Diagnostic[] = [];
  const seen = new Map<string, string>();
  let positive = 0;
  let negative = 0;
  const itemsOf = (at: string[]) => (at.length === 0 ? value : (value as Record<string, unknown>)[at[0]]) as unknown[];
  for (const at of lists) {
    found.push(...validateAgainstSchema(queriesSchema, itemsOf(at), { ...target, basePath: at }));
    itemsOf(at).forEach((entry, index) => {
      if (!isRecord(entry)) return;
      if (entry.should_trigger === true) positive++;
      if (entry.should_trigger === false) negative++;
      const key = QUERY_KEYS.find((name) => name in entry);
      const item = at.length === 0 ? `item ${index + 1}` : `\`${at[0]}[${index}]\``;
      if (key === undefined) {
        // Where the schema put a missing key: the item's first key.
        const first = mapEntries(nodeAtPath(yaml, [...at, index]).node)[0]?.keyNode;
        found.push(
          diagnostic(
            invalidTriggerQueries,
            file,
            nodeSpan(yaml, first) ?? spanAt(yaml, [...at, index]),
            `\`${at[0] ?? ''}[${index}]\` has no query: the prompt to run goes under \`query\` (\`prompt\` and \`input\` are read too).`,
          ),
        );
        return;
      }
      if (typeof entry[key] !== 'string') return;
      const text = entry[key].trim().replace(/\s+/g, ' ').toLowerCase();
      const first = seen.get(text);
      if (first !== undefined)
        duplicates.push(
          diagnostic(
            invalidTriggerQueries,
            file,
            spanAt(yaml, [...at, index, key]),
            `The same query as ${first}: it counts twice toward the trigger rate and tests nothing new.`,
          ),
        );
      else seen.set(text, item);
    });
  }
  const diagnostics = [
    ...oneFindingPerKind(found, (indices) => `items ${listedNames(indices.map((index) => String(index + 1)))}`),
    ...duplicates,
  ];
  const bracket = spanAt(yaml, lists[0]).start;
  if (positive + negative > 0 && (positive === 0 || negative === 0))
    diagnostics.push(
      diagnostic(
        triggerQueriesOneSided,
        file,
        // The list's opening bracket: the finding is about the whole set.
        { start: bracket, end: bracket + 1 },
        negative === 0
          ? `All ${positive} queries should trigger the skill: with no query it should stay out of (a near miss), a description that fires on everything passes. Add queries with \`"should_trigger": false\`.`
          : `No query should trigger the skill: a description that never fires passes. Add queries with \`"should_trigger": true\`.`,
      ),
    );
  return diagnostics;
}
