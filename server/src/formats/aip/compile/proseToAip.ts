import * as path from 'node:path';
import { stringify } from 'yaml';
import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { AIP_03_SCHEMA_ID, AIP_03_SPEC } from '../read/aipMetadata';
import { blockScript } from '../../../parse/markdown/blockCommands';
import { fenceLanguage } from '../../../parse/markdown/skillFile';
import aipSchema from '../../../../../schemas/aip-0.3.procedure.schema.json';
import { skillFileText } from '../../../forms/resultPackage';
import { optional, plain, readScaffold, type ScaffoldStep } from './proseScaffold';
import { locate, inReadingOrder, stepFindings, strayFenceFindings } from './scaffoldFindings';
import type { CompiledFile } from '../../../analysis/format';
import { appendTo } from '../../../listMap';
import { compileTodo } from '../../../forms/compileFindings';
import { SCRIPT_EXTENSIONS } from '../../../platforms/shells';

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

/**
 * A prose skill as an AIP 0.3 package (`--aip-version 0.3`), deterministically, as the AIP 0.3 compiler laid one
 * out: the steps the scaffold reads, fenced commands as scripts bound to their step and other fenced examples as
 * assets, and the original kept in `source/` with the procedure schema. What the prose does not say (a value's type,
 * a step's output) is marked TODO and reported. Returns the new files and those findings.
 */
export function proseToAip(
  analysis: AnalysisBase,
  outDir: string,
): { files: CompiledFile[]; findings: Diagnostic[]; skillMd: string } {
  const syntax = analysis.syntax!;
  const name = path.basename(outDir);
  const scaffold = readScaffold(analysis);
  const { outline, steps } = scaffold;
  const findings: Diagnostic[] = [...scaffold.findings];
  const files: CompiledFile[] = [];
  const written = steps.map((step) => bindFences(syntax.text, step, files));
  const procedure = {
    purpose: scaffold.purpose,
    trigger_when: scaffold.triggerWhen,
    ...optional('do_not_use_when', scaffold.doNotUseWhen),
    steps: steps.map((step, index) => ({
      name: step.name,
      description: written[index].description,
      ...(written[index].script ? { script: written[index].script } : {}),
      ...(step.inputs.length > 0 ? { inputs: step.inputs } : {}),
      ...(step.outputs.length > 0 ? { outputs: step.outputs } : {}),
    })),
    ...optional('anti_patterns', scaffold.antiPatterns),
  };
  const body = `\`\`\`yaml\n${stringify(procedure, { lineWidth: 100, version: '1.1', aliasDuplicateObjects: false })}\`\`\``;
  const skillMd = skillFileText(
    {
      ...scaffold.frontmatter,
      name,
      metadata: { ...scaffold.metadata, aip: { spec: AIP_03_SPEC, schemaId: AIP_03_SCHEMA_ID } },
    },
    body,
  );

  const schema = { ...aipSchema, $id: AIP_03_SCHEMA_ID };
  files.push(
    { path: 'SKILL.md', content: skillMd },
    { path: 'source/original-SKILL.md', content: analysis.text },
    { path: 'source/procedure.schema.json', content: `${JSON.stringify(schema, null, 2)}\n` },
    {
      path: 'source/README.md',
      content: `# Source\n\nCompiled by \`skillgraph compile --to aip --aip-version 0.3\` from the prose skill kept here as \`original-SKILL.md\`: ${outline.steps.length} step${outline.steps.length === 1 ? '' : 's'} read from its ${outline.source}. \`procedure.schema.json\` is the AIP 0.3 procedure schema, with the \`$id\` that \`metadata.aip.schemaId\` names.\n`,
    },
  );
  findings.push(...strayFenceFindings(analysis, scaffold));
  // TODOs are reported where they are in the result, so the author can go straight to them.
  const resultFile = path.join(outDir, 'SKILL.md');
  findings.push(
    ...stepFindings(
      scaffold,
      skillMd,
      resultFile,
      'Add its outputs (name and type) so later steps can take them as inputs.',
    ),
  );
  for (const step of steps) {
    for (const output of step.outputs.filter((item) => !item.type)) {
      findings.push(
        diagnostic(
          compileTodo,
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
  return { files, findings: inReadingOrder(findings, resultFile), skillMd };
}

/** AIP 0.3: a step's fenced commands as its script (one per language), its other blocks as assets it cites. */
function bindFences(text: string, step: ScaffoldStep, files: CompiledFile[]): { description: string; script?: string } {
  const notes: string[] = [];
  const scripts = new Map<string, string[]>();
  step.fences.forEach((fence, index) => {
    const language = fenceLanguage(fence).toLowerCase();
    // A block of commands to run is a script; any other block is an example (an asset).
    const scriptExtension = SCRIPT_EXTENSIONS[language];
    // A script holds what a block runs: from a session at a prompt, the commands without the prompts or the output.
    if (scriptExtension) appendTo(scripts, scriptExtension, blockScript(text, fence).trimEnd());
    else {
      const file = `assets/${step.name}-${index + 1}.${ASSET_EXTENSIONS[language] ?? 'txt'}`;
      files.push({ path: file, content: text.slice(fence.content.start, fence.content.end) });
      notes.push(`Example: ${file}`);
    }
  });
  let script: string | undefined;
  [...scripts].forEach(([extension, blocks], index) => {
    const file = `scripts/${step.name}${index === 0 ? '' : `-${index + 1}`}.${extension}`;
    const header = extension === 'py' ? '#!/usr/bin/env python3\n' : '#!/usr/bin/env bash\nset -euo pipefail\n';
    files.push({
      path: file,
      content: `${header}# ${step.prose.title.replace(/\s+/g, ' ').trim()}\n\n${blocks.join('\n\n')}\n`,
    });
    if (index === 0) script = file;
    else notes.push(`Also run ${file}.`);
  });
  const description =
    [plain(step.text.replace(/\n{3,}/g, '\n\n')), ...notes].filter(Boolean).join('\n\n') || plain(step.prose.title);
  return { description, ...(script ? { script } : {}) };
}
