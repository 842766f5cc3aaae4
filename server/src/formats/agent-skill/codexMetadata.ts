import * as path from 'node:path';
import openaiSchema from '../../../../schemas/codex-openai.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { misspeltKeys } from '../../checks/match/misspeltKeys';
import { validateAgainstSchema } from '../../checks/schema/schemaValidation';
import { parseYamlRegion, type YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan } from '../../parse/yaml/yamlNodes';
import type { FileSystem } from '../../workspace/fileSystem';
import { readText } from '../../workspace/readText';
import { defineRule } from '../../checks/engine/rule';
import { missingFile } from '../../checks/links/fileLinks';

// Codex reads `agents/openai.yaml` beside a skill's SKILL.md: how its apps show the skill (`interface`), the MCP
// servers it needs (`dependencies`), and whether the model may pick it unasked (`policy`). Codex fails open: a file
// that does not parse, or a value it cannot use, is left out with a line in its log, and the skill loads anyway. So
// every finding here is a warning: the skill works, without what the author wrote.

export const invalidOpenaiYaml = defineRule({
  code: 'invalid_openai_yaml',
  category: 'companion',
  severity: 'warning',
  summary: "A value of a skill's `agents/openai.yaml` that Codex cannot use, and leaves out.",
  stability: 'stable',
  formats: 'all',
});

/** Where Codex looks for a skill's metadata, relative to the skill folder. */
export const CODEX_METADATA_FILE = 'agents/openai.yaml';

/** The top-level keys Codex reads; another key one letter off is a typo it ignores. */
const TOP_KEYS = ['interface', 'dependencies', 'policy'];

const START = { start: 0, end: 0 };

/** Whether `file` is the Codex metadata of the skill in `dir`. */
export function isCodexMetadata(dir: string, file: string): boolean {
  return file === path.join(dir, ...CODEX_METADATA_FILE.split('/'));
}

/** The findings of a skill's `agents/openai.yaml`, and its text (for their lines), when the file exists. */
export function checkCodexMetadata(
  fs: FileSystem,
  dir: string,
): { diagnostics: Diagnostic[]; sources: [string, string][] } {
  // Most skills have no `agents/`: the folder's listing (read once per analysis) says so without a failed open.
  if (!fs.readDirectory(dir).some((entry) => entry.name === 'agents')) return { diagnostics: [], sources: [] };
  const file = path.join(dir, ...CODEX_METADATA_FILE.split('/'));
  const read = readText(fs, file);
  if (read.kind === 'missing') return { diagnostics: [], sources: [] };
  if (read.kind !== 'text')
    return {
      diagnostics: [
        diagnostic(
          invalidOpenaiYaml,
          file,
          { ...START, file },
          `${CODEX_METADATA_FILE} is ${read.kind === 'binary' ? 'not text' : 'too large to read'}; Codex ignores it.`,
        ),
      ],
      sources: [],
    };
  const text = read.text;
  const yaml = parseYamlRegion(text, { start: 0, end: text.length });
  const diagnostics = yaml.problems.map((problem) =>
    diagnostic(
      invalidOpenaiYaml,
      file,
      problem.span,
      `${CODEX_METADATA_FILE} does not parse, so Codex ignores all of it: ${problem.message}`,
    ),
  );
  const value = yaml.value;
  if (diagnostics.length === 0 && value !== null && value !== undefined) {
    if (typeof value !== 'object' || Array.isArray(value))
      diagnostics.push(
        diagnostic(invalidOpenaiYaml, file, START, `${CODEX_METADATA_FILE} must be a map; Codex ignores it.`),
      );
    else diagnostics.push(...checkValue(fs, dir, file, yaml, value as Record<string, unknown>));
  }
  // Their spans say which file they are in, as every span outside SKILL.md does.
  return {
    diagnostics: diagnostics.map((item) => ({ ...item, span: { ...item.span, file } })),
    sources: [[file, text]],
  };
}

function checkValue(
  fs: FileSystem,
  dir: string,
  file: string,
  yaml: YamlSyntax,
  value: Record<string, unknown>,
): Diagnostic[] {
  const diagnostics = validateAgainstSchema(openaiSchema, value, {
    file,
    yaml,
    rootSpan: START,
    defaultRule: invalidOpenaiYaml,
    rootName: CODEX_METADATA_FILE,
  });
  for (const { key, meant, span } of misspeltKeys(yaml, yaml.doc.contents, TOP_KEYS))
    diagnostics.push(
      diagnostic(invalidOpenaiYaml, file, span, `Codex does not read \`${key}\`. Did you mean \`${meant}\`?`, {
        suggestion: meant,
      }),
    );
  // An icon Codex can take (under assets/, the schema says) must also be there to be shown.
  const icons =
    value.interface && typeof value.interface === 'object' ? (value.interface as Record<string, unknown>) : {};
  for (const key of ['icon_small', 'icon_large']) {
    const icon = icons[key];
    if (typeof icon !== 'string' || !/^(\.\/)?assets\//.test(icon) || icon.split('/').includes('..')) continue;
    const relative = icon.replace(/^\.\//, '');
    if (fs.stat(path.join(dir, ...relative.split('/')))?.kind === 'file') continue;
    const node = nodeAtPath(yaml, ['interface', key]);
    diagnostics.push(
      diagnostic(
        missingFile,
        file,
        nodeSpan(yaml, node.node) ?? START,
        `The icon \`${relative}\` does not exist in the skill folder; Codex shows the skill without it.`,
      ),
    );
  }
  return diagnostics;
}
