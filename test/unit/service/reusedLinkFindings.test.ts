import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { AnalysisCache, type OpenDocument } from '../../../server/src/service/analysisCache';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { SkillCatalog } from '../../../server/src/workspace/skillCatalog';
import { writeAipSkill } from '../../support/generate';
import { CHUNK_THRESHOLD } from '../../../server/src/parse/yaml/yamlChunks';
import { defaultOptions } from '../../support/cacheOptions';

const findings = (diagnostics: { code: string; span: { start: number } }[]) =>
  diagnostics
    .filter((found) => found.code === 'missing_script' || found.code === 'missing_file')
    .map((found) => `${found.code}@${found.span.start}`)
    .sort();

test("a reused step's link findings are worked out again once the disk changes, not kept from the last snapshot", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sg-kept-links-'));
  try {
    const skill = writeAipSkill(root, 'procedure', 80);
    assert.ok(skill.text.length > CHUNK_THRESHOLD, 'parsed in chunks, so unchanged steps are kept');
    // A script of a step past the first (half the steps have one): its step is kept by the edit below.
    const script = /script: (scripts\/step_0\d*[1-9]\d*\.py)/.exec(skill.text)![1];
    rmSync(path.join(skill.dir, script));
    rmSync(path.join(skill.dir, 'references', 'guide.md'));
    const fs = new NodeFileSystem();
    const catalog = new SkillCatalog(fs);
    const cache = new AnalysisCache(fs, defaultOptions(catalog));
    const document: OpenDocument & { text: string } = {
      uri: `file://${skill.file}`,
      file: skill.file,
      version: 1,
      text: skill.text,
    };
    const before = findings(cache.view(document, skill.file, [document]).analysis.diagnostics);
    assert.ok(
      before.some((found) => found.startsWith('missing_script@')),
      'the deleted script is missing',
    );
    assert.ok(
      before.filter((found) => found.startsWith('missing_file@')).length >= 40,
      'every mention of the deleted guide is missing',
    );

    // A space typed into the first step's description: every other step is kept, with its link objects.
    document.text = skill.text.replace('Read references/guide.md', 'Read  references/guide.md');
    document.version++;
    const edited = cache.view(document, skill.file, [document]).analysis;
    assert.deepEqual(
      findings(edited.diagnostics),
      findings(analyzeSkill(fs, skill.file, { text: document.text, catalog }).diagnostics),
      'reused findings moved with their steps',
    );

    // The files come back; the editor reports it and the next analysis must see them, for reused steps too.
    writeFileSync(path.join(skill.dir, script), 'print(1)\n');
    writeFileSync(path.join(skill.dir, 'references', 'guide.md'), '# Guide\n');
    cache.invalidateFolderOf(path.join(skill.dir, script));
    document.text = document.text.replace('Read  references/guide.md', 'Read references/guide.md');
    document.version++;
    assert.deepEqual(findings(cache.view(document, skill.file, [document]).analysis.diagnostics), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
