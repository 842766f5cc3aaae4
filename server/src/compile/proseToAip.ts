import * as path from 'node:path';
import { stringify } from 'yaml';
import type { SkillAnalysis } from '../analyze';
import { diagnostic, type Diagnostic } from '../checks/diagnostic';
import { fenceLanguage } from '../parse/skillFile';
import { nodeSpan, pairOf } from '../parse/yamlSyntax';
import aipSchema from '../../../schemas/aip-0.3.procedure.schema.json';
import { frontmatterOf, skillFileText } from './resultPackage';
import { readProse, type ProseStep } from './proseSteps';
import type { CompiledFile } from './compiled';

export const AIP_SPEC = 'https://github.com/zach-blumenfeld/aip/tree/v0.3a3';
export const AIP_SCHEMA_ID =
  'https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json';

/** Fenced languages whose blocks are commands to run (scripts); any other block is an example (an asset). */
const SCRIPT_EXTENSIONS: Record<string, string> = {
  bash: 'sh',
  sh: 'sh',
  shell: 'sh',
  zsh: 'sh',
  python: 'py',
  py: 'py',
  python3: 'py',
};
const ASSET_EXTENSIONS: Record<string, string> = {
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  javascript: 'js',
  js: 'js',
  typescript: 'ts',
  ts: 'ts',
  tsx: 'tsx',
  jsx: 'jsx',
  markdown: 'md',
  md: 'md',
  html: 'html',
  css: 'css',
  diff: 'diff',
  sql: 'sql',
  toml: 'toml',
};

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
const PRONOUNS = /\b(them|it|these|those|this list|the result|the results|the list)\b/i;
const PRODUCING_VERB =
  /\b(write|create|produce|generate|draft|build|compute|list|find|collect|gather|identify|summari[sz]e|record|save|return|choose|pick|decide on|extract|prepare|make|get|fetch|read|load|determine)\s+([^.;:!?()`]+)/i;
const STRING_WORDS =
  /^(path|file|url|name|tag|version|id|message|text|summary|report|notes|note|line|title|description|answer|reply|draft|plan|branch|commit|diff|output|command|query|slug|prompt|email|code|content|markdown|document)$/;

/** Markdown as plain words: no emphasis, links as their text and target, code spans kept as text. */
function plain(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (_, label: string, target: string) =>
      label && label !== target ? `${label} (${target})` : target,
    )
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|\s)[*_](\S(?:.*?\S)?)[*_](?=\s|$|[.,;:!?])/g, '$1$2')
    .trim();
}

function kebab(words: string[]): string {
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

interface ScaffoldStep {
  name: string;
  description: string;
  script?: string;
  inputs: { name: string; type?: string; description?: string }[];
  outputs: { name: string; type?: string; description?: string }[];
  /** Head noun of each output, for finding later mentions. */
  heads: string[];
  prose: ProseStep;
}

/**
 * A prose skill as an AIP 0.3 package, deterministically, as the AIP
 * compiler lays one out: steps from the prose's own structure, a name and
 * a typed output from what each step makes, inputs where a later step
 * mentions an earlier output, fenced commands as scripts bound to their
 * step and other fenced examples as assets, references cited where the
 * prose cites them, and the original kept in `source/`. What the prose
 * does not say (a value's type, a step's output) is marked TODO and
 * reported. Returns the new files and those findings.
 */
export function proseToAip(
  analysis: SkillAnalysis,
  outDir: string,
): { files: CompiledFile[]; findings: Diagnostic[]; skillMd: string } {
  const syntax = analysis.syntax!;
  const name = path.basename(outDir);
  const outline = readProse(syntax);
  const findings: Diagnostic[] = [];
  const files: CompiledFile[] = [];
  const used = new Set<string>();
  const uniqueName = (base: string) => {
    let candidate = base || 'step';
    for (let n = 2; used.has(candidate); n++) candidate = `${base}-${n}`;
    used.add(candidate);
    return candidate;
  };
  const steps: ScaffoldStep[] = outline.steps.map((prose) => ({
    name: uniqueName(kebab(leadingWords(prose.title, 4))),
    description: '',
    inputs: [],
    outputs: [],
    heads: [],
    prose,
  }));
  const boundFences = new Set<number>();
  for (const step of steps) {
    // Fenced blocks inside the step leave its text: commands become its script, examples its assets.
    let description = step.prose.text;
    const notes: string[] = [];
    const inside = outline.fences.filter(
      (fence) => step.prose.span.start <= fence.open.start && fence.open.start < step.prose.span.end,
    );
    const scripts = new Map<string, string[]>();
    inside.forEach((fence, index) => {
      boundFences.add(fence.open.start);
      const code = syntax.text.slice(fence.content.start, fence.content.end);
      const raw = syntax.text.slice(fence.open.start, fence.close?.end ?? fence.content.end);
      description = description.replace(raw.trim(), '');
      const language = fenceLanguage(fence).toLowerCase();
      const scriptExtension = SCRIPT_EXTENSIONS[language];
      if (scriptExtension) scripts.set(scriptExtension, [...(scripts.get(scriptExtension) ?? []), code.trimEnd()]);
      else {
        const file = `assets/${step.name}-${index + 1}.${ASSET_EXTENSIONS[language] ?? 'txt'}`;
        files.push({ path: file, content: code });
        notes.push(`Example: ${file}`);
      }
    });
    [...scripts].forEach(([extension, blocks], index) => {
      const file = `scripts/${step.name}${index === 0 ? '' : `-${index + 1}`}.${extension}`;
      const header = extension === 'py' ? '#!/usr/bin/env python3\n' : '#!/usr/bin/env bash\nset -euo pipefail\n';
      files.push({
        path: file,
        content: `${header}# ${step.prose.title.replace(/\s+/g, ' ').trim()}\n\n${blocks.join('\n\n')}\n`,
      });
      if (index === 0) step.script = file;
      else notes.push(`Also run ${file}.`);
    });
    step.description =
      [plain(description.replace(/\n{3,}/g, '\n\n')), ...notes].filter(Boolean).join('\n\n') || plain(step.prose.title);

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

  const frontmatter = frontmatterOf(analysis);
  const description = typeof frontmatter.description === 'string' ? frontmatter.description : '';
  const procedure = {
    purpose: outline.lead ? plain(outline.lead) : description,
    trigger_when: triggers(description, outline.loose),
    ...optional('do_not_use_when', notWhen(description, outline.loose)),
    steps: steps.map((step) => ({
      name: step.name,
      description: step.description,
      ...(step.script ? { script: step.script } : {}),
      ...(step.inputs.length > 0 ? { inputs: step.inputs } : {}),
      ...(step.outputs.length > 0 ? { outputs: step.outputs } : {}),
    })),
    ...optional(
      'anti_patterns',
      outline.loose
        .filter((line) => /^(?:[-*+]\s+)?(?:\*\*)?(never|don't|do not|avoid)\b/i.test(line.text))
        .map((line) => plain(line.text.replace(/^[-*+]\s+/, '')))
        .slice(0, 20),
    ),
  };
  const { metadata, ...rest } = frontmatter;
  const kept = stringMetadata(analysis, metadata, findings);
  const body = `\`\`\`yaml\n${stringify(procedure, { lineWidth: 100, version: '1.1' })}\`\`\``;
  const skillMd = skillFileText(
    { ...rest, name, metadata: { ...kept, aip: { spec: AIP_SPEC, schemaId: AIP_SCHEMA_ID } } },
    body,
  );

  const schema = { ...aipSchema, $id: AIP_SCHEMA_ID };
  files.push(
    { path: 'SKILL.md', content: skillMd },
    { path: 'source/original-SKILL.md', content: analysis.text },
    { path: 'source/procedure.schema.json', content: `${JSON.stringify(schema, null, 2)}\n` },
    {
      path: 'source/README.md',
      content: `# Source\n\nCompiled by \`skillgraph compile --to aip\` from the prose skill kept here as \`original-SKILL.md\`: ${outline.steps.length} step${outline.steps.length === 1 ? '' : 's'} read from its ${outline.source}. \`procedure.schema.json\` is the AIP 0.3 procedure schema, with the \`$id\` that \`metadata.aip.schemaId\` names.\n`,
    },
  );
  for (const fence of outline.fences.filter((item) => !boundFences.has(item.open.start))) {
    findings.push(
      diagnostic(
        'compile_todo',
        analysis.file,
        fence.open,
        'This code block lies outside the steps, so no step runs or cites it; it stays only in source/original-SKILL.md. Move it into the step it belongs to, or refine the steps.',
      ),
    );
  }
  // TODOs are reported where they are in the result, so the author can go straight to them.
  const resultFile = path.join(outDir, 'SKILL.md');
  for (const step of steps) {
    const at = locate(skillMd, `- name: ${step.name}\n`, `- name: ${step.name}`.length);
    if (outline.source === 'whole body')
      findings.push(
        diagnostic(
          'compile_todo',
          resultFile,
          at,
          'The prose has no steps to read (no `Step N` headings, numbered list or first/then sentences), so the whole skill is one step. Split it into the steps it describes.',
        ),
      );
    if (step.outputs.length === 0)
      findings.push(
        diagnostic(
          'compile_todo',
          resultFile,
          at,
          `Step \`${step.name}\` produces no named value the prose makes clear. Add its outputs (name and type) so later steps can take them as inputs.`,
        ),
      );
    for (const output of step.outputs.filter((item) => !item.type)) {
      findings.push(
        diagnostic(
          'compile_todo',
          resultFile,
          locate(
            skillMd,
            `- name: ${output.name}\n`,
            `- name: ${output.name}`.length,
            skillMd.indexOf(`- name: ${step.name}\n`),
          ),
          `The prose does not say what type \`${output.name}\` is. Give it one of string, integer, float, boolean, object, list[…].`,
        ),
      );
    }
  }
  return { files, findings, skillMd };
}

/** Where a `- name: x` line's `name: x` is in the result (searched from `from`). */
function locate(text: string, needle: string, length: number, from = 0): { start: number; end: number } {
  const at = text.indexOf(needle, Math.max(0, from));
  const start = at === -1 ? 0 : at + 2;
  return { start, end: at === -1 ? 0 : at + length };
}

function optional(key: string, items: string[]): Record<string, string[]> {
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
 * was rejected upstream). Every other entry is reported where it is, and stays in `source/original-SKILL.md`.
 */
function stringMetadata(analysis: SkillAnalysis, metadata: unknown, findings: Diagnostic[]): Record<string, string> {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const kept: Record<string, string> = {};
  const node = pairOf(analysis.frontmatter?.doc.contents, 'metadata')?.value;
  for (const [key, value] of Object.entries(metadata as Record<string, unknown>)) {
    if (typeof value === 'string') {
      kept[key] = value;
      continue;
    }
    const at = analysis.frontmatter && nodeSpan(analysis.frontmatter, pairOf(node, key)?.key);
    findings.push(
      diagnostic(
        'compile_todo',
        analysis.file,
        at ?? analysis.syntax?.frontmatter?.open ?? { start: 0, end: 0 },
        `\`metadata.${key}\` is ${Array.isArray(value) ? 'a list' : value === null ? 'empty' : `a ${typeof value === 'object' ? 'map' : typeof value}`}; a package's metadata holds strings only, so it is left out (it stays in source/original-SKILL.md). Write it as a string to carry it.`,
      ),
    );
  }
  return kept;
}
