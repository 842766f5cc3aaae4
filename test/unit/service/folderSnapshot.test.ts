import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { mock, test } from 'node:test';
import { AnalysisCache, type OpenDocument } from '../../../server/src/service/analysisCache';
import { AnalysisFileSystem } from '../../../server/src/workspace/diskSnapshot';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { SkillCatalog } from '../../../server/src/workspace/skillCatalog';
import { writeAipSkill } from '../../support/generate';
import { defaultOptions } from '../../support/cacheOptions';

// The server's view of a skill folder is trusted for two seconds, then
// asked again of the disk: kept while every answer it gave still holds,
// made anew (and every finding about the disk with it) once one does not.

const DIR = path.resolve('/skill');

/**
 * A snapshot that has listed the skill folder and `scripts/`, read one script, stat'ed a file absent from a folder not
 * listed, and resolved a link.
 */
function asked(memory: MemoryFileSystem): AnalysisFileSystem {
  const snapshot = new AnalysisFileSystem(memory, true);
  snapshot.readDirectory(DIR);
  snapshot.readDirectory(path.join(DIR, 'scripts'));
  snapshot.readFile(path.join(DIR, 'scripts', 'run.py'));
  snapshot.stat(path.join(DIR, 'notes', 'b.md'));
  snapshot.realpath(path.join(DIR, 'shared'));
  return snapshot;
}

function disk(): MemoryFileSystem {
  const memory = new MemoryFileSystem({
    [path.join(DIR, 'SKILL.md')]: '---\nname: skill\n---\n',
    [path.join(DIR, 'scripts', 'run.py')]: 'print(1)\n',
    [path.join(DIR, 'notes', 'a.md')]: '# A\n',
  });
  memory.symlink(path.join(DIR, 'shared'), path.join(DIR, 'notes'));
  return memory;
}

test('a snapshot matches the disk until one of its answers changes: a listing, a stat, a file read, a link', () => {
  assert.equal(asked(disk()).matchesDisk(), true, 'nothing changed');
  const changes: [string, (memory: MemoryFileSystem) => void][] = [
    ['a file created in a folder listed', (memory) => memory.write(path.join(DIR, 'scripts', 'new.py'), '')],
    ['a file deleted from a folder listed', (memory) => memory.delete(path.join(DIR, 'SKILL.md'))],
    [
      'a file read rewritten, the same size',
      (memory) => memory.write(path.join(DIR, 'scripts', 'run.py'), 'print(2)\n'),
    ],
    ["a path stat'ed created", (memory) => memory.write(path.join(DIR, 'notes', 'b.md'), '# B\n')],
    ['a link pointed elsewhere', (memory) => memory.symlink(path.join(DIR, 'shared'), path.join(DIR, 'scripts'))],
  ];
  for (const [label, change] of changes) {
    const memory = disk();
    const snapshot = asked(memory);
    change(memory);
    assert.equal(snapshot.matchesDisk(), false, label);
  }
  // A file nobody asked about changes nothing the snapshot answered.
  const memory = disk();
  const snapshot = asked(memory);
  memory.write(path.join(DIR, 'notes', 'a.md'), '# Another\n');
  assert.equal(snapshot.matchesDisk(), true, "a file neither listed, stat'ed nor read");
});

test('on the disk, a file read is compared by its modification time and size, not read again', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sg-snapshot-'));
  try {
    const file = path.join(root, 'run.py');
    writeFileSync(file, 'print(1)\n');
    utimesSync(file, 1_000, 1_000);
    const snapshot = new AnalysisFileSystem(new NodeFileSystem(), true);
    assert.equal(new TextDecoder().decode(snapshot.readFile(file)), 'print(1)\n');
    assert.equal(snapshot.matchesDisk(), true);
    writeFileSync(file, 'print(2)\n');
    utimesSync(file, 1_000, 2_000);
    assert.equal(snapshot.matchesDisk(), false, 'the same size, a new modification time');
  } finally {
    mock.timers.reset();
    rmSync(root, { recursive: true, force: true });
  }
});

// The cache reads the time from Date.now: the clock is moved on, not waited for.
const waitPastFolderView = () => mock.timers.tick(2100);

type Findings = { code: string }[];

/**
 * A generated procedure in a temporary folder (`prepare` changes the folder
 * first), open in the server's analysis cache, the clock in the test's
 * hands. `analyse` applies an edit (a replacement) if given and returns the
 * findings.
 */
function withOpenProcedure(
  steps: number,
  prepare: (dir: string, root: string) => void,
  run: (open: { dir: string; root: string; analyse: (edit?: [string, string]) => Findings }) => void,
): void {
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  const root = mkdtempSync(path.join(tmpdir(), 'sg-folder-view-'));
  try {
    const skill = writeAipSkill(root, 'procedure', steps);
    prepare(skill.dir, root);
    const fs = new NodeFileSystem();
    const cache = new AnalysisCache(fs, defaultOptions(new SkillCatalog(fs)));
    const document: OpenDocument & { text: string } = {
      uri: `file://${skill.file}`,
      file: skill.file,
      version: 1,
      text: skill.text,
    };
    const analyse = (edit?: [string, string]) => {
      if (edit) {
        document.text = document.text.replace(edit[0], edit[1]);
        document.version++;
      }
      return cache.view(document, skill.file, [document]).analysis.diagnostics;
    };
    run({ dir: skill.dir, root, analyse });
  } finally {
    mock.timers.reset();
    rmSync(root, { recursive: true, force: true });
  }
}

const missingFiles = (findings: Findings) => findings.filter((found) => found.code === 'missing_file');
const SPACE: [string, string] = ['pass the result on', 'pass the result  on'];
const UNSPACE: [string, string] = ['pass the result  on', 'pass the result on'];

test('an expired folder view that still matches the disk keeps its findings; once the disk changed they are worked out again', () => {
  withOpenProcedure(
    40,
    (dir) => rmSync(path.join(dir, 'references', 'guide.md')),
    ({ dir, analyse }) => {
      const missing = missingFiles(analyse());
      assert.ok(missing.length >= 20, 'every mention of the deleted guide is missing');

      waitPastFolderView();
      // The view is asked again and still holds: the findings of the steps the edit left alone are the same objects,
      // not made again.
      const kept = missingFiles(analyse(SPACE));
      assert.equal(kept.length, missing.length);
      assert.ok(
        kept.filter((found) => missing.includes(found)).length >= missing.length - 1,
        'findings kept with the view',
      );

      // The guide written back, with no file event: the next keystroke past the view's time sees it.
      mkdirSync(path.join(dir, 'references'), { recursive: true });
      writeFileSync(path.join(dir, 'references', 'guide.md'), '# Guide\n');
      assert.equal(missingFiles(analyse(UNSPACE)).length, missing.length, "within the view's time, its answers stand");
      waitPastFolderView();
      assert.deepEqual(missingFiles(analyse(SPACE)), [], 'the view no longer matched the disk');
    },
  );
});

test('a link in the folder retargeted: the view is made anew', () => {
  const prepare = (dir: string, root: string) => {
    const guide = path.join(dir, 'references', 'guide.md');
    mkdirSync(path.join(root, 'elsewhere'));
    writeFileSync(path.join(root, 'elsewhere', 'guide.md'), readFileSync(guide));
    rmSync(guide);
    symlinkSync(path.join(root, 'elsewhere', 'guide.md'), guide);
  };
  withOpenProcedure(12, prepare, ({ dir, root, analyse }) => {
    const codes = (findings: Findings) => findings.map((found) => found.code);
    const before = codes(analyse());
    // The guide now leads to a file that does not exist.
    const guide = path.join(dir, 'references', 'guide.md');
    rmSync(guide);
    symlinkSync(path.join(root, 'missing.md'), guide);
    waitPastFolderView();
    assert.notDeepEqual(codes(analyse(SPACE)), before, 'the link is read again');
  });
});

test('a folder view that keeps matching the disk is still made anew after a minute, so what it remembers does not pile up', () => {
  withOpenProcedure(
    12,
    (dir) => rmSync(path.join(dir, 'references', 'guide.md')),
    ({ analyse }) => {
      const first = missingFiles(analyse());
      assert.ok(first.length > 0);
      const last = first[first.length - 1];
      // A keystroke every 2.1 s for just under a minute: the view is checked each time and kept.
      for (let seconds = 2.1, round = 0; seconds < 60; seconds += 2.1, round++) {
        waitPastFolderView();
        assert.ok(
          missingFiles(analyse(round % 2 === 0 ? SPACE : UNSPACE)).includes(last),
          `kept at ${seconds.toFixed(1)} s`,
        );
      }
      waitPastFolderView();
      assert.ok(
        !missingFiles(analyse(SPACE)).includes(last) && !missingFiles(analyse(UNSPACE)).includes(last),
        'made anew past a minute',
      );
    },
  );
});
