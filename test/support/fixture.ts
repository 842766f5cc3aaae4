import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeSkill, type SkillAnalysis } from '../../server/src/analyze';
import type { Diagnostic } from '../../server/src/checks/engine/diagnostic';
import type { ProfileId } from '../../server/src/platforms/profiles';
import { runtimeBlockText } from '../../server/src/formats/aip/read/runtimeBlock';
import type { RuleCode } from '../../server/src/rules';
import type { Span } from '../../server/src/parse/text/lineIndex';
import { MemoryFileSystem } from '../../server/src/workspace/memoryFileSystem';

/** Where inline fixtures live in the in-memory tree. */
export const ROOT = '/skills';

/** Marks an expected range inside fixture text: «like this». */
const OPEN = '«';
const CLOSE = '»';

/** Removes range markers, returning the clean text and the marked spans in order. */
export function unmark(marked: string): { text: string; spans: Span[] } {
  const spans: Span[] = [];
  let text = '';
  let open = -1;
  for (const char of marked) {
    if (char === OPEN) open = text.length;
    else if (char === CLOSE) {
      spans.push({ start: open, end: text.length });
      open = -1;
    } else text += char;
  }
  return { text, spans };
}

export interface Fixture {
  analysis: SkillAnalysis;
  /** The marked spans of SKILL.md. */
  spans: Span[];
  fs: MemoryFileSystem;
}

/**
 * Analyses an inline skill `name` whose SKILL.md is `skillMd` (with range
 * markers) and whose other files are `files` (paths relative to the skill).
 */
export function analyzeFixture(
  name: string,
  skillMd: string,
  files: Record<string, string> = {},
  profile?: ProfileId,
): Fixture {
  const { text, spans } = unmark(skillMd);
  const dir = path.join(ROOT, name);
  const fs = new MemoryFileSystem({ [path.join(dir, 'SKILL.md')]: text });
  for (const [relative, content] of Object.entries(files)) fs.write(path.join(dir, relative), content);
  return { analysis: analyzeSkill(fs, path.join(dir, 'SKILL.md'), profile ? { profile } : {}), spans, fs };
}

/** `analyzeFixture` with the preview rules on (they are off unless a configuration or `--preview` asks for them). */
export function analyzeWithPreview(name: string, skillMd: string, files: Record<string, string> = {}): Fixture {
  const fixture = analyzeFixture(name, skillMd, files);
  return { ...fixture, analysis: analyzeSkill(fixture.fs, fixture.analysis.file, { preview: true }) };
}

/**
 * Analyses skill `main` among other files of the fixture tree: `files` maps
 * paths relative to ROOT to their text (a MetaSkill beside the skills it
 * composes). Only `main`'s SKILL.md may carry range markers.
 */
export function analyzeAmong(
  main: string,
  skillMd: string,
  files: Record<string, string>,
  profile?: ProfileId,
): Fixture {
  const { text, spans } = unmark(skillMd);
  const fs = new MemoryFileSystem({ [path.join(ROOT, main, 'SKILL.md')]: text });
  for (const [relative, content] of Object.entries(files)) fs.write(path.join(ROOT, relative), content);
  return { analysis: analyzeSkill(fs, path.join(ROOT, main, 'SKILL.md'), profile ? { profile } : {}), spans, fs };
}

export function withCode(analysis: SkillAnalysis, code: RuleCode): Diagnostic[] {
  return analysis.diagnostics.filter((item) => item.code === code);
}

/** Asserts that `code` is reported exactly at `spans` (in order) and returns those diagnostics. */
export function expectAt(analysis: SkillAnalysis, code: RuleCode, spans: Span[]): Diagnostic[] {
  const found = withCode(analysis, code);
  assert.deepEqual(
    found.map((item) => ({
      start: item.span.start,
      end: item.span.end,
      text: analysis.text.slice(item.span.start, item.span.end),
    })),
    spans.map((span) => ({ ...span, text: analysis.text.slice(span.start, span.end) })),
    `${code} ranges; all diagnostics: ${JSON.stringify(analysis.diagnostics.map((item) => [item.code, item.message]))}`,
  );
  return found;
}

/** Asserts that `code` is not reported at all. */
export function expectNone(analysis: SkillAnalysis, code: RuleCode): void {
  assert.deepEqual(
    withCode(analysis, code).map((item) => item.message),
    [],
    `${code} should not be reported`,
  );
}

/** A minimal valid frontmatter for skill `name`. */
export function frontmatter(name: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: Does one thing well. Use when testing.\n${extra}---\n`;
}

/** AIP 0.3 frontmatter and a matching `source/` schema file. */
export function aip03(name: string, procedure: string): { skillMd: string; files: Record<string, string> } {
  const schemaId = 'https://example.test/aip/v0.3a3/procedure.schema.json';
  const skillMd = `---\nname: ${name}\ndescription: An AIP test skill. Use when testing.\nmetadata:\n  aip:\n    spec: https://example.test/aip/tree/v0.3a3\n    schemaId: ${schemaId}\n---\n\n\`\`\`yaml\n${procedure}\`\`\`\n`;
  return { skillMd, files: { 'source/procedure.schema.json': JSON.stringify({ $id: schemaId }) } };
}

/** AIP 0.5 frontmatter, the published runtime block of `runtimeVersion` (a stand-in for others) and a procedure. */
export function aip05(name: string, procedure: string, version = '0.5a1', runtimeVersion = '0.5a1'): string {
  const block =
    runtimeBlockText(runtimeVersion) ?? `# AIP runtime — format ${runtimeVersion}\n\nRun the procedure below.`;
  return `---\nname: ${name}\ndescription: An AIP 0.5 test skill. Use when testing.\nmetadata:\n  aip-version: "${version}"\n---\n\n${block}\n\n\`\`\`yaml\n${procedure}\`\`\`\n`;
}

/** An AIP 0.3 skill whose one step runs `scripts/fetch.py`, which the tests leave absent (a stub can be made). */
export function fetchProcedure(name: string): string {
  return [
    '---',
    `name: ${name}`,
    'description: Fetches data. Use when testing.',
    'metadata:',
    '  aip:',
    '    spec: https://github.com/zach-blumenfeld/aip/tree/v0.3a3',
    '---',
    '```yaml',
    'purpose: Fetch.',
    'steps:',
    '  - name: fetch',
    '    description: Fetch the data.',
    '    script: scripts/fetch.py',
    '```',
    '',
  ].join('\n');
}
