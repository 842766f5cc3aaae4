import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../../server/src/analyze';
import { IncrementalState } from '../../../server/src/incremental/incrementalState';
import { CHUNK_THRESHOLD } from '../../../server/src/parse/yaml/yamlChunks';
import { AnalysisFileSystem } from '../../../server/src/workspace/diskSnapshot';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { type FileSystem } from '../../../server/src/workspace/fileSystem';
import { aip03, ROOT } from '../../support/fixture';

// The language server keeps, per step, the parts of the lists an AIP
// loader makes from every step (control edges, script findings, declared
// paths, the findings about paths the text mentions), and makes again only
// the parts of the steps an edit changed and of the steps after them. After
// each edit the findings and the model must equal a fresh analysis.

const STEPS = 30;

/**
 * A 0.3 procedure over the chunking threshold: one script outside `scripts/`, one missing, a comment between two steps
 * naming a missing file.
 */
function procedure(): string {
  const lines = ['purpose: Kept lists.', 'trigger_when:', '  - Testing.', 'steps:'];
  for (let index = 0; index < STEPS; index++) {
    // Step 2 names step 9's script, which is checked where step 9 declares it, not where step 2 mentions it.
    lines.push(
      `  - name: step-${index}`,
      `    description: Step ${index} reads ${index === 2 ? 'scripts/absent.py' : 'references/guide.md'} first.`,
    );
    if (index === 5) lines.push('    script: tools/outside.py');
    else if (index === 9) lines.push('    script: scripts/absent.py');
    else if (index % 2 === 0) lines.push(`    script: scripts/step_${index}.py`);
    lines.push('    outputs:', `      - name: value-${index}`, '        type: string');
    if (index > 0) lines.push('    inputs:', `      - name: value-${index - 1}`, '        type: string');
    if (index === 14) lines.push('  # The next step follows references/gone.md.');
  }
  return `${lines.join('\n')}\n`;
}

/** The skill in `dir` of `memory`. */
function disk(
  dir = path.join(ROOT, 'kept-lists'),
  memory = new MemoryFileSystem(),
): { memory: MemoryFileSystem; file: string; text: string } {
  const { skillMd, files } = aip03('kept-lists', procedure());
  memory.write(path.join(dir, 'SKILL.md'), skillMd);
  for (const [relative, content] of Object.entries(files)) memory.write(path.join(dir, relative), content);
  memory.write(path.join(dir, 'references', 'guide.md'), '# Guide\n');
  memory.write(path.join(dir, 'tools', 'outside.py'), '"""Outside scripts/."""\n');
  for (let index = 0; index < STEPS; index += 2)
    memory.write(path.join(dir, 'scripts', `step_${index}.py`), '"""A step."""\n');
  return { memory, file: path.join(dir, 'SKILL.md'), text: skillMd };
}

/** What a fresh analysis must equal: findings with their places, the model's nodes and edges. */
function observable(analysis: SkillAnalysis): unknown {
  return {
    diagnostics: analysis.diagnostics.map((item) => [item.code, item.span.start, item.span.end, item.message]),
    nodes: analysis.model.nodes,
    edges: analysis.model.edges,
  };
}

function codes(analysis: SkillAnalysis): string[] {
  return analysis.diagnostics.map((item) => item.code).sort();
}

test('per-step lists are spliced: after edits above, inside and between steps, and a renamed step, the findings and graph equal a fresh analysis', () => {
  const { memory, file, text: original } = disk();
  assert.ok(original.length > CHUNK_THRESHOLD * 2, 'parsed in chunks');
  const fs: FileSystem = new AnalysisFileSystem(memory, true);
  const caches = { incremental: new IncrementalState() };
  const first = analyzeSkill(fs, file, { text: original, ...caches });
  assert.deepEqual(codes(first), ['missing_file', 'missing_script', 'script_outside_scripts']);
  const outside = first.diagnostics.find((item) => item.code === 'script_outside_scripts')!;

  const versions: [string, (text: string) => string][] = [
    ['typing in a step description', (text) => text.replace('Step 20 reads', 'Step 20 now reads')],
    ['typing above the steps', (text) => text.replace('purpose: Kept lists.', 'purpose: Kept lists, longer.')],
    ['the step before the comment edited', (text) => text.replace('Step 14 reads', 'Step 14 reads, then')],
    ['the comment between steps edited', (text) => text.replace('references/gone.md', 'references/also-gone.md')],
    [
      'a comment naming a file removed',
      (text) => text.replace('  # The next step follows references/also-gone.md.\n', ''),
    ],
    [
      'a step renamed: the next one follows it under its new name',
      (text) => text.replace('  - name: step-11\n', '  - name: step-eleven\n'),
    ],
    // No name or edge changes: only the step's key tells the graph checks to run again.
    [
      'an output type changed',
      (text) =>
        text.replace('      - name: value-20\n        type: string', '      - name: value-20\n        type: integer'),
    ],
    ['a script moved under scripts/', (text) => text.replace('tools/outside.py', 'scripts/step_4.py')],
    [
      'a declared script renamed: the mention in another step is now checked',
      (text) => text.replace('script: scripts/absent.py', 'script: scripts/absent-too.py'),
    ],
    ['the same text again', (text) => text],
  ];
  let text = original;
  let last = first;
  for (const [label, change] of versions) {
    const next = change(text);
    assert.notEqual(next === text, label !== 'the same text again', `${label}: the edit applies`);
    text = next;
    const analysis = analyzeSkill(fs, file, { text, ...caches });
    assert.deepEqual(observable(analysis), observable(analyzeSkill(fs, file, { text })), label);
    if (label === 'typing in a step description') {
      // Step 5's finding was not made again: the same object, in the same place.
      assert.ok(analysis.diagnostics.includes(outside), 'a reused step keeps its findings');
      assert.equal(analysis.diagnostics.filter((item) => item.code === 'missing_file').length, 1);
    }
    if (label === 'the same text again') assert.deepEqual(analysis.diagnostics, last.diagnostics);
    last = analysis;
  }
  assert.deepEqual(
    codes(last),
    ['missing_file', 'missing_script', 'type_mismatch'],
    'the comment is gone, the script moved, the mention no longer declared, the types differ',
  );
});

test('a step kept across a new snapshot of the disk has its findings worked out again; within one snapshot they stand', () => {
  const { memory, file, text } = disk();
  const caches = { incremental: new IncrementalState() };
  const snapshot = new AnalysisFileSystem(memory, true);
  assert.ok(
    analyzeSkill(snapshot, file, { text, ...caches }).diagnostics.some((item) => item.code === 'missing_script'),
  );
  memory.write(path.join(path.dirname(file), 'scripts', 'absent.py'), '"""Now here."""\n');
  memory.write(path.join(path.dirname(file), 'references', 'gone.md'), '# Notes\n');
  const edited = text.replace('Step 20 reads', 'Step 20 now reads');
  // The snapshot still says what the disk held when it was taken, as its findings do.
  assert.deepEqual(codes(analyzeSkill(snapshot, file, { text: edited, ...caches })), [
    'missing_file',
    'missing_script',
    'script_outside_scripts',
  ]);
  const fresh = new AnalysisFileSystem(memory, true);
  const again = analyzeSkill(fresh, file, { text, ...caches });
  assert.deepEqual(codes(again), ['script_outside_scripts']);
  assert.deepEqual(observable(again), observable(analyzeSkill(fresh, file, { text })));
});

test('the graph checks are kept while the graph is the same: moved with a reused step, placed on a rebuilt one, made anew for another file', () => {
  const { memory, file, text: original } = disk();
  const fs: FileSystem = new AnalysisFileSystem(memory, true);
  const incremental = new IncrementalState();
  // Step 20's output feeds step 21's input under another type: a finding of the checks over the whole graph.
  const text = original.replace(
    '      - name: value-20\n        type: string',
    '      - name: value-20\n        type: integer',
  );
  const mismatch = (analysis: SkillAnalysis) => analysis.diagnostics.find((item) => item.code === 'type_mismatch');
  const found = mismatch(analyzeSkill(fs, file, { text, incremental }));
  assert.ok(found, 'the types differ');

  const above = text.replace('purpose: Kept lists.', 'purpose: Kept lists, longer.');
  const moved = analyzeSkill(fs, file, { text: above, incremental });
  assert.equal(mismatch(moved), found, 'typing above the steps: the same finding, not checked again');
  assert.deepEqual(observable(moved), observable(analyzeSkill(fs, file, { text: above })));

  const inside = above.replace('Step 20 reads', 'Step 20 now reads').replace('Step 21 reads', 'Step 21 now reads');
  const placed = analyzeSkill(fs, file, { text: inside, incremental });
  assert.notEqual(mismatch(placed), found, 'typing in the steps it is about: pointed at their new spans');
  assert.deepEqual(observable(placed), observable(analyzeSkill(fs, file, { text: inside })));

  // The same text in another folder (a diff of two folders): its findings name that folder's file.
  const other = disk(path.join(ROOT, 'other', 'kept-lists'), memory).file;
  const elsewhere = new AnalysisFileSystem(memory, true);
  const there = analyzeSkill(elsewhere, other, { text: inside, incremental });
  assert.equal(mismatch(there)?.file, other);
  assert.deepEqual(observable(there), observable(analyzeSkill(elsewhere, other, { text: inside })));
});
