import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { FileSystem } from '../../../workspace/fileSystem';
import { readText } from '../../../workspace/readText';
import type { AipMetadata } from './aipMetadata';
import { appendTo } from '../../../listMap';
import { defineRule } from '../../../checks/engine/rule';

export const missingSourceDir = defineRule({
  code: 'missing_source_dir',
  category: 'aip',
  severity: 'error',
  summary: 'An AIP package has no `source/` folder.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export const missingSchemaFile = defineRule({
  code: 'missing_schema_file',
  category: 'aip',
  severity: 'error',
  summary: '`source/` holds no `*.schema.json`.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export const schemaIdMismatch = defineRule({
  code: 'schema_id_mismatch',
  category: 'aip',
  severity: 'error',
  summary: 'No bundled schema has an `$id` equal to `schemaId`.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export const duplicateSchemaId = defineRule({
  code: 'duplicate_schema_id',
  category: 'aip',
  severity: 'error',
  summary: 'Two bundled schemas share one `$id`.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

/**
 * Whether the skill folder has a `source/` folder, which every AIP package (0.3 and 0.4+) must: the folder's listing
 * says what `source` is, as a stat would (a link is not a folder), and discovery listed it already.
 */
export function hasSourceDir(fs: FileSystem, dir: string): boolean {
  return fs.readDirectory(dir).find((entry) => entry.name === 'source')?.kind === 'directory';
}

/**
 * The AIP 0.3 package rules: `source/` holds the procedure schema the
 * skill names by `schemaId`, exactly once. Schema files are read as JSON
 * text only; nothing in them is executed or fetched.
 */
export function checkPackage(fs: FileSystem, dir: string, file: string, metadata: AipMetadata): Diagnostic[] {
  const sourceDir = path.join(dir, 'source');
  if (!hasSourceDir(fs, dir)) {
    return [
      diagnostic(
        missingSourceDir,
        file,
        metadata.schemaIdSpan,
        'An AIP 0.3 package needs a `source/` folder holding the procedure schema (`*.schema.json`) and the original SKILL.md.',
      ),
    ];
  }
  const schemaFiles = fs
    .readDirectory(sourceDir)
    .filter((entry) => entry.kind === 'file' && entry.name.endsWith('.schema.json'))
    .map((entry) => entry.name)
    .sort();
  if (schemaFiles.length === 0) {
    return [
      diagnostic(
        missingSchemaFile,
        file,
        metadata.schemaIdSpan,
        '`source/` holds no `*.schema.json`; copy the procedure schema named by `schemaId` into it.',
      ),
    ];
  }
  const diagnostics: Diagnostic[] = [];
  const byId = new Map<string, string[]>();
  for (const name of schemaFiles) {
    const id = schemaIdOf(fs, path.join(sourceDir, name));
    if (id) appendTo(byId, id, name);
  }
  for (const [id, names] of byId) {
    if (names.length > 1) {
      diagnostics.push(
        diagnostic(
          duplicateSchemaId,
          file,
          metadata.schemaIdSpan,
          `${names.map((name) => `source/${name}`).join(' and ')} share the \`$id\` ${id}; keep one.`,
        ),
      );
    }
  }
  if (metadata.schemaId && !byId.has(metadata.schemaId)) {
    const found = [...byId.keys()];
    const have =
      found.length > 0 ? ` The bundled schema${found.length > 1 ? 's have' : ' has'} ${found.join(', ')}.` : '';
    diagnostics.push(
      diagnostic(
        schemaIdMismatch,
        file,
        metadata.schemaIdSpan,
        `No schema in \`source/\` has the \`$id\` named by \`schemaId\`.${have}`,
        { found },
      ),
    );
  }
  return diagnostics;
}

function schemaIdOf(fs: FileSystem, schemaFile: string): string | undefined {
  const read = readText(fs, schemaFile);
  if (read.kind !== 'text') return undefined;
  try {
    const parsed = JSON.parse(read.text) as { $id?: unknown };
    return typeof parsed.$id === 'string' ? parsed.$id : undefined;
  } catch {
    return undefined;
  }
}
