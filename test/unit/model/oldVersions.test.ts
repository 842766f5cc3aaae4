import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { analyzeSkill } from '../../../server/src/analyze';
import { readFlowPy } from '../../../server/src/formats/skillplus/read/readFlowPy';
import type { FlowStatement } from '../../../server/src/formats/skillplus/read/reusedFlowStatements';
import { IncrementalState } from '../../../server/src/incremental/incrementalState';
import { ReusedReadings } from '../../../server/src/parse/parseCache';
import { parsePython } from '../../../server/src/parse/python/python';
import { AnalysisFileSystem } from '../../../server/src/workspace/diskSnapshot';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { writeSkillplusPackage } from '../../support/generate';
import { aip03, ROOT } from '../../support/fixture';

// The server keeps what an analysis made (chunks, steps, findings) for the
// next keystroke. Nothing it keeps may hold on to the text it was made from:
// V8 makes a slice of a long string a view of the whole string, so one kept
// slice per version would keep every version of a large document typed
// since it was opened. Measured as the heap left after full collections.

setFlagsFromString('--expose-gc');
const collect: () => void = runInNewContext('gc');

const STEPS = 200;
const PROSE = 'It reads the rows, keeps the ones that matter and writes what it found, '.repeat(6);

/** A 0.3 procedure of long steps, each mentioning a reference, so that a version of the text is worth measuring. */
function procedure(): string {
  const lines = ['purpose: Held versions.', 'trigger_when:', '  - Testing.', 'steps:'];
  for (let index = 0; index < STEPS; index++) {
    lines.push(
      `  - name: step-${index}`,
      `    description: Step ${index} follows references/guide-${index}.md. ${PROSE}`,
    );
    lines.push('    outputs:', `      - name: value-${index}`, '        type: string');
    if (index > 0) lines.push('    inputs:', `      - name: value-${index - 1}`, '        type: string');
  }
  return `${lines.join('\n')}\n`;
}

/** The objects left after full collections (compiled code, which grows as the edits get optimized, left out). */
function heapAfterCollection(): number {
  collect();
  collect();
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'old_space' || space.space_name === 'large_object_space')
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

/**
 * How much the heap grows over `rounds` edits from round `start`, measured
 * over two such windows one after the other, the smaller of the two. A
 * version of the text kept per edit grows the heap in both windows alike;
 * a one-time allocation (seen in about one run of fifteen, 1.4-1.6 MB at
 * once, with the code before and after this change) lands in one of them.
 */
function leastGrowth(edit: (round: number) => void, start: number, rounds: number): number {
  const grown: number[] = [];
  for (let window = 0; window < 2; window++) {
    const before = heapAfterCollection();
    for (let round = start + window * rounds; round < start + (window + 1) * rounds; round++) edit(round);
    grown.push(heapAfterCollection() - before);
  }
  return Math.min(...grown);
}

/**
 * Types a character into, then out of, step `at(round)`'s description, `rounds` times, with the caches the server
 * keeps.
 */
function typeInto(at: (round: number) => number, rounds: number): { grown: number; textLength: number } {
  const { skillMd } = aip03('held-versions', procedure());
  const dir = path.join(ROOT, 'held-versions');
  const file = path.join(dir, 'SKILL.md');
  const fs = new AnalysisFileSystem(new MemoryFileSystem({ [file]: skillMd }), true);
  const caches = { incremental: new IncrementalState() };
  let text = skillMd;
  let place = 0;
  const edit = (round: number) => {
    const inserting = round % 2 === 0;
    if (inserting) place = text.indexOf(`Step ${at(round)} follows`) + 'Step'.length;
    // A new string each time, made as an editor's document makes it.
    text = inserting
      ? `${text.slice(0, place)}x${text.slice(place)}`
      : `${text.slice(0, place)}${text.slice(place + 1)}`;
    const analysis = analyzeSkill(fs, file, { text, ...caches });
    assert.equal(
      analysis.diagnostics.filter((item) => item.code === 'missing_file').length,
      STEPS,
      `every mention is checked: ${[...new Set(analysis.diagnostics.map((item) => item.code + ' ' + item.message))].slice(0, 5).join('; ')}`,
    );
  };
  analyzeSkill(fs, file, { text, ...caches });
  // The first edits make what is kept from then on (the chunk layout, per-step lists).
  for (let round = 0; round < 6; round++) edit(round);
  return { grown: leastGrowth(edit, 6, rounds), textLength: text.length };
}

test('typing in many steps of a long procedure keeps no earlier version of its text', () => {
  // Each pair of edits goes to another step: its chunk, step and mention findings are made from the new text and kept.
  const { grown, textLength } = typeInto((round) => (Math.floor(round / 2) * 37) % STEPS, 120);
  assert.ok(textLength > 100_000, 'a version is large enough to see');
  // 60 steps edited: a version kept per step would be 60 texts. The heap moves by a few hundred KB from run to run,
  // with nothing kept.
  assert.ok(grown < 8 * textLength, `heap grew by ${grown} bytes over 60 steps edited (text: ${textLength} bytes)`);
});

test('typing in one step over and over keeps no chain of earlier versions', () => {
  // Each list of steps is made from the last one: a link kept from every list to the one before keeps each one's
  // replaced step and its array of 200.
  const { grown, textLength } = typeInto(() => STEPS / 2, 600);
  assert.ok(
    grown < 8 * textLength,
    `heap grew by ${grown} bytes over 600 edits of one step (text: ${textLength} bytes)`,
  );
});

test('typing in many nodes of a long flow.py keeps no earlier version of its text', () => {
  const { flowText } = writeSkillplusPackage(mkdtempSync(path.join(tmpdir(), 'held-flow-')), 'held-flow', 1000, 1, 1);
  const kept = new ReusedReadings<FlowStatement>();
  const read = (text: string) => readFlowPy(parsePython('/p/flow.py', text), kept);
  const nodes = read(flowText).nodes.length;
  let text = flowText;
  let place = 0;
  const edit = (round: number) => {
    // Into an agent's text, a different node every other edit: the node is read from this version and kept.
    if (round % 2 === 0)
      place = text.indexOf(': step ', text.indexOf(`flow.agent("n${(Math.floor(round / 2) * 37) % 900}"`)) + 2;
    text =
      round % 2 === 0
        ? `${text.slice(0, place)}x${text.slice(place)}`
        : `${text.slice(0, place)}${text.slice(place + 1)}`;
    assert.equal(read(text).nodes.length, nodes);
  };
  for (let round = 0; round < 6; round++) edit(round);
  const grown = leastGrowth(edit, 6, 120);
  assert.ok(text.length > 100_000, 'a version is large enough to see');
  assert.ok(grown < 8 * text.length, `heap grew by ${grown} bytes over 60 nodes edited (text: ${text.length} bytes)`);
});
