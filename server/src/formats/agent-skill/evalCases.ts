import * as path from 'node:path';
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
