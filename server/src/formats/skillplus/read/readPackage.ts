import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { Span } from '../../../parse/text/lineIndex';
import { ParseCache } from '../../../parse/parseCache';
import type { PythonSyntax } from '../../../parse/python/python';
import { nodeSpan, pairOf, valueOf } from '../../../parse/yaml/yamlNodes';
import { readText } from '../../../workspace/readText';
import { resolveSkillPath } from '../../../workspace/skillPaths';
import type { FormatContext } from '../../../analysis/formatContext';
import type { Flow } from './flow';
import { readFlowPy } from './readFlowPy';
import { readFlowYaml } from './readFlowYaml';
import { readState, type StateSchema } from './readState';
import type { Attachment } from './tipsRulesRules';
import {
  readMarkdownFrontmatter,
  readMarkdownRule,
  readPythonRules,
  readSpecIds,
  readTip,
  type MarkdownFrontmatter,
  type Rule,
  type Tip,
} from './readTipsRules';
import { defineRule, type Rule as LintRule } from '../../../checks/engine/rule';
import { binaryFile, fileTooLarge } from '../../../checks/skillFile/unreadableFile';

export const invalidSkillplusMetadata = defineRule({
  code: 'invalid_skillplus_metadata',
  category: 'skillplus',
  severity: 'error',
  summary: 'A `skillplus-*` metadata value is malformed.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const invalidFlowFile = defineRule({
  code: 'invalid_flow_file',
  category: 'skillplus',
  severity: 'error',
  summary: 'The flow file is missing, or both flow.py and flow.yaml are there without a choice.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const invalidState = defineRule({
  code: 'invalid_state',
  category: 'skillplus',
  severity: 'error',
  summary: 'state.py is missing, does not parse, or lacks the State class.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const DEFAULT_TIP_BUDGET = 2000;

/** Everything a skill+ package is made of, read from its files (never run). */
export interface SkillPlusPackage {
  dir: string;
  version?: string;
  flow?: Flow;
  state?: StateSchema;
  /** `skillplus-state`'s class name (default `State`). */
  stateClass: string;
  tipBudget: number;
  tips: Tip[];
  /** Reference files that are not tips (no `when:`), for the rules about tip-only keys. */
  references: MarkdownFrontmatter[];
  rules: Rule[];
  spec?: { file: string; ids: ReturnType<typeof readSpecIds> };
  /** The text of every package file read, by path: spans into them become ranges. */
  sources: Map<string, string>;
  /** Python files, for the features that look at their syntax. */
  python: Map<string, PythonSyntax>;
  diagnostics: Diagnostic[];
  /** Where each tip and rule can fire; filled by the cross-file checks. */
  attachments: Attachment[];
}

/**
 * Reads the files of a skill+ package: the flow (`flow.py` or `flow.yaml`,
 * as `metadata.skillplus-flow` says), `state.py`, tips in `references/`,
 * rules in `rules/`, `spec.md`. Only files inside the skill folder are read;
 * a binary or oversized file is a finding on that file, not a read.
 */
export function readPackage(context: FormatContext): SkillPlusPackage {
  const { fs, dir, file } = context;
  const metadataNode = valueOf(context.frontmatter?.doc.contents, 'metadata');
  const metadata = (context.frontmatterValue?.metadata ?? {}) as Record<string, unknown>;
  const metaSpan = (key: string): Span =>
    (context.frontmatter
      ? nodeSpan(context.frontmatter, pairOf(metadataNode, key)?.value ?? pairOf(metadataNode, key)?.key)
      : undefined) ?? context.frontmatterAnchor;
  const pkg: SkillPlusPackage = {
    dir,
    stateClass: 'State',
    tipBudget: DEFAULT_TIP_BUDGET,
    tips: [],
    references: [],
    rules: [],
    sources: new Map(),
    python: new Map(),
    diagnostics: [],
    attachments: [],
  };
  const fail = (rule: LintRule, at: Span, message: string) =>
    pkg.diagnostics.push(diagnostic(rule, at.file ?? file, at, message));

  if (typeof metadata['skillplus-version'] === 'string') pkg.version = metadata['skillplus-version'];
  if (pkg.version !== '0.1')
    fail(
      invalidSkillplusMetadata,
      metaSpan('skillplus-version'),
      `\`skillplus-version\` is ${JSON.stringify(metadata['skillplus-version'])}; this is skill+ 0.1, written as the string "0.1".`,
    );
  const budget = metadata['skillplus-tip-budget'];
  if (budget !== undefined) {
    if (typeof budget === 'string' && /^\d+$/.test(budget)) pkg.tipBudget = Number(budget);
    else
      fail(
        invalidSkillplusMetadata,
        metaSpan('skillplus-tip-budget'),
        '`skillplus-tip-budget` is a whole number of characters, written as a string (`"1500"`).',
      );
  }

  /** A package file's text, if it is inside the folder and readable; findings otherwise. */
  const read = (
    relative: string,
    at: Span,
    missing?: typeof invalidFlowFile | typeof invalidState,
  ): { file: string; text: string } | undefined => {
    const resolution = resolveSkillPath(fs, dir, relative);
    if (resolution.status === 'escapes' || resolution.status === 'backslash') {
      fail(invalidSkillplusMetadata, at, `\`${relative}\` must be a path inside the skill folder.`);
      return undefined;
    }
    if (resolution.status !== 'found') {
      if (missing)
        fail(
          missing,
          at,
          `\`${relative}\` does not exist in the skill folder${resolution.status === 'case_mismatch' ? ` (only \`${resolution.actual}\`, with another case)` : ''}.`,
        );
      return undefined;
    }
    return readFile(resolution.absolute);
  };
  const readFile = (absolute: string): { file: string; text: string } | undefined => {
    const result = readText(fs, absolute);
    const at = { start: 0, end: 0, file: absolute };
    if (result.kind === 'binary')
      fail(binaryFile, at, `${path.basename(absolute)} holds binary data, not text; it is not read.`);
    else if (result.kind === 'too_large')
      fail(
        fileTooLarge,
        at,
        `${path.basename(absolute)} is ${(result.size / 1048576).toFixed(1)} MB; files that large are not read.`,
      );
    if (result.kind !== 'text') return undefined;
    pkg.sources.set(absolute, result.text);
    return { file: absolute, text: result.text };
  };
  // A server keeps what it read across edits; without one, each file is read once here.
  const cache = context.incremental?.files ?? new ParseCache();
  const python = (found: { file: string; text: string }): PythonSyntax => {
    const py = cache.python(found.file, found.text);
    pkg.python.set(found.file, py);
    return py;
  };

  // The flow: the metadata's choice, else flow.py, else flow.yaml; both without a choice is ambiguous.
  const chosen = metadata['skillplus-flow'];
  const exists = (name: string) => resolveSkillPath(fs, dir, name).status === 'found';
  let flowName = typeof chosen === 'string' ? chosen : exists('flow.py') ? 'flow.py' : 'flow.yaml';
  if (typeof chosen !== 'string' && exists('flow.py') && exists('flow.yaml')) {
    fail(
      invalidFlowFile,
      context.frontmatterAnchor,
      'Both flow.py and flow.yaml are here and `metadata.skillplus-flow` does not say which is the flow.',
    );
    flowName = 'flow.py';
  }
  const flowFile = read(
    flowName,
    typeof chosen === 'string' ? metaSpan('skillplus-flow') : context.frontmatterAnchor,
    invalidFlowFile,
  );
  if (flowFile) {
    const py = flowName.endsWith('.py') ? python(flowFile) : undefined;
    pkg.flow = cache.memo('flow', flowFile.file, flowFile.text, () =>
      py
        ? readFlowPy(py, context.incremental?.files.reused('flow statements', flowFile.file))
        : readFlowYaml(flowFile.file, flowFile.text),
    );
  }

  const stateSetting =
    typeof metadata['skillplus-state'] === 'string' ? (metadata['skillplus-state'] as string) : 'state.py:State';
  const [stateName, className = 'State'] = stateSetting.split(':');
  pkg.stateClass = className;
  const stateFile = read(
    stateName,
    typeof metadata['skillplus-state'] === 'string' ? metaSpan('skillplus-state') : context.frontmatterAnchor,
    invalidState,
  );
  if (stateFile) {
    const py = python(stateFile);
    pkg.state = cache.memo(`state:${className}`, stateFile.file, stateFile.text, () => readState(py, className));
    if (!pkg.state.root)
      fail(
        invalidState,
        { start: 0, end: 0, file: stateFile.file },
        `${stateName} defines no class \`${className}\`${pkg.state.models.size > 0 ? ` (it has ${[...pkg.state.models.keys()].join(', ')})` : ''}.`,
      );
  }

  for (const entry of fs.readDirectory(path.join(dir, 'references')).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.kind !== 'file' || !entry.name.endsWith('.md')) continue;
    const found = readFile(path.join(dir, 'references', entry.name));
    if (!found) continue;
    const { frontmatter, tip } = cache.memo('tip', found.file, found.text, () => {
      const read = readMarkdownFrontmatter(found.file, found.text);
      return { frontmatter: read, tip: readTip(read) };
    });
    if (tip) pkg.tips.push(tip);
    else pkg.references.push(frontmatter);
  }
  for (const entry of fs.readDirectory(path.join(dir, 'rules')).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.kind !== 'file' || !/\.(md|py)$/.test(entry.name)) continue;
    const found = readFile(path.join(dir, 'rules', entry.name));
    if (!found) continue;
    if (entry.name.endsWith('.md'))
      pkg.rules.push(
        cache.memo('rule', found.file, found.text, () =>
          readMarkdownRule(readMarkdownFrontmatter(found.file, found.text)),
        ),
      );
    else {
      const py = python(found);
      pkg.rules.push(...cache.memo('rules', found.file, found.text, () => readPythonRules(py)));
    }
  }
  if (exists('spec.md')) {
    const spec = read('spec.md', context.frontmatterAnchor);
    if (spec)
      pkg.spec = {
        file: spec.file,
        ids: cache.memo('spec', spec.file, spec.text, () => readSpecIds(spec.file, spec.text)),
      };
  }
  return pkg;
}
