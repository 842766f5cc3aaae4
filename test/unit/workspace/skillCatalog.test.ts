import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseDocument } from 'yaml';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { type EntryStat } from '../../../server/src/workspace/fileSystem';
import { readCatalogSkill, SkillCatalog } from '../../../server/src/workspace/skillCatalog';
import { CORPUS } from '../../support/corpus';

test('the line reader agrees with a YAML parse on every corpus skill', () => {
  for (const family of ['plain', 'metaskill', 'aip-v03', 'aip-v05']) {
    for (const owner of readdirSync(join(CORPUS, family))) {
      const folders = readdirSync(join(CORPUS, family, owner)).map((name) => join(CORPUS, family, owner, name));
      for (const folder of [join(CORPUS, family, owner), ...folders]) {
        let text: string;
        try {
          text = readFileSync(join(folder, 'SKILL.md'), 'utf8');
        } catch {
          continue;
        }
        const read = readCatalogSkill('SKILL.md', text);
        const parsed = parseDocument(text.slice(4, text.indexOf('\n---', 4)), {
          version: '1.1',
          uniqueKeys: false,
        }).toJS() as Record<string, unknown>;
        assert.equal(read?.name, parsed.name, folder);
        assert.equal(read?.kind, typeof parsed.kind === 'string' ? parsed.kind : undefined, folder);
        assert.equal(read?.entrypoint, typeof parsed.entrypoint === 'object' && parsed.entrypoint !== null, folder);
        assert.equal(
          read?.description,
          typeof parsed.description === 'string' ? parsed.description : undefined,
          folder,
        );
      }
    }
  }
});

test('quoted, repeated and block values take the parser; no name or no frontmatter is no catalog entry', () => {
  assert.deepEqual(readCatalogSkill('f', '---\nname: "a\\"b"\ndescription: >\n  folded\n---\n'), {
    name: 'a"b',
    file: 'f',
    entrypoint: false,
    description: 'folded\n',
  });
  assert.equal(readCatalogSkill('f', '---\nname: one\nname: two\n---\n')?.name, 'two');
  assert.equal(readCatalogSkill('f', "---\nname: 'it''s'\n---\n")?.name, "it's");
  assert.equal(readCatalogSkill('f', '---\ndescription: x\n---\n'), undefined);
  assert.equal(readCatalogSkill('f', 'name: x\n'), undefined);
  assert.equal(readCatalogSkill('f', '---\nname: [broken\n---\n'), undefined);
});

/** A tree whose stats carry a time, so the catalog's cache can tell a changed file. */
class TimedFileSystem extends MemoryFileSystem {
  times = new Map<string, number>();
  reads = 0;
  stats: string[] = [];
  override stat(filePath: string): EntryStat | undefined {
    this.stats.push(filePath);
    const stat = super.stat(filePath);
    return stat ? { ...stat, mtimeMs: this.times.get(filePath) ?? 1 } : undefined;
  }
  override readFile(filePath: string): Uint8Array | undefined {
    this.reads++;
    return super.readFile(filePath);
  }
}

test('the catalog: siblings over configured roots, each SKILL.md read again only after a change', () => {
  const fs = new TimedFileSystem({
    '/ws/skills/meta/SKILL.md': '---\nname: meta\nkind: meta\n---\n',
    '/ws/skills/writer/SKILL.md': '---\nname: writer\ndescription: Local.\n---\n',
    '/ws/shared/writer/SKILL.md': '---\nname: writer\ndescription: Shared.\n---\n',
    '/ws/shared/reviewer/SKILL.md': '---\nname: reviewer\nentrypoint: {script: run.py}\n---\n',
    '/ws/skills/.hidden/SKILL.md': '---\nname: hidden\n---\n',
  });
  const catalog = new SkillCatalog(fs, ['/ws/shared']);
  const skills = catalog.forSkill('/ws/skills/meta');
  assert.deepEqual([...skills.keys()].sort(), ['meta', 'reviewer', 'writer']);
  assert.equal(skills.get('writer')?.description, 'Local.');
  assert.equal(skills.get('reviewer')?.entrypoint, true);
  const reads = fs.reads;
  catalog.forSkill('/ws/skills/meta');
  assert.equal(fs.reads, reads, 'a second look reads nothing');
  fs.write('/ws/skills/writer/SKILL.md', '---\nname: writer2\n---\n');
  fs.times.set('/ws/skills/writer/SKILL.md', 2);
  const stats = fs.stats.length;
  catalog.invalidate('/ws/skills/writer/SKILL.md', 'changed');
  const after = catalog.forSkill('/ws/skills/meta');
  assert.equal(fs.reads, reads + 1, 'only the changed skill is read again');
  assert.deepEqual([...new Set(fs.stats.slice(stats))], ['/ws/skills/writer/SKILL.md'], 'and only it is looked at');
  assert.equal(after.get('writer')?.description, 'Shared.');
  assert.ok(after.has('writer2'));
  // A skill created beside it: the folder is listed again.
  fs.write('/ws/skills/editor/SKILL.md', '---\nname: editor\n---\n');
  catalog.invalidate('/ws/skills/editor/SKILL.md', 'created');
  assert.ok(catalog.forSkill('/ws/skills/meta').has('editor'));
  // And deleted: gone, the other skills kept.
  fs.delete('/ws/skills/editor/SKILL.md');
  catalog.invalidate('/ws/skills/editor', 'deleted');
  assert.deepEqual([...catalog.forSkill('/ws/skills/meta').keys()].sort(), ['meta', 'reviewer', 'writer', 'writer2']);
});
