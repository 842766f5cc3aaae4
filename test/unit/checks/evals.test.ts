import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SkillAnalysis } from '../../../server/src/analyze';
import type { RuleCode } from '../../../server/src/rules';
import { toGraphJson } from '../../../server/src/forms/graphJson';
import type { Span } from '../../../server/src/parse/text/lineIndex';
import { discoverSkills } from '../../../server/src/workspace/discover';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { aip03, analyzeFixture, expectNone, ROOT, unmark, withCode } from '../../support/fixture';

// A skill's evals as the Agent Skills guides lay them out: `evals/evals.json` (cases: prompt, expected output, input
// files, expectations) and trigger query sets (`evals/*queries*.json`), each checked in its own file.

const SKILL =
  '---\nname: charts\ndescription: Charts CSV files. Use when asked for a chart.\n---\n\nRun `scripts/chart.py`; it writes `chart.png`.\n';
const FILES = { 'scripts/chart.py': 'print("chart.png")\n', 'evals/files/sales.csv': 'month,revenue\n' };

/** Asserts that `code` is reported exactly at the marked spans of the skill's file `relative`. */
function expectIn(analysis: SkillAnalysis, code: RuleCode, relative: string, spans: Span[]) {
  const file = path.join(analysis.dir, ...relative.split('/'));
  const text = analysis.sources.get(file) ?? '';
  assert.deepEqual(
    withCode(analysis, code).map((item) => [item.file, item.span.file, text.slice(item.span.start, item.span.end)]),
    spans.map((span) => [file, file, text.slice(span.start, span.end)]),
    JSON.stringify(analysis.diagnostics.map((item) => [item.code, item.message])),
  );
}

function withEvals(evals: string, more: Record<string, string> = {}) {
  const { text, spans } = unmark(evals);
  const { analysis } = analyzeFixture('charts', SKILL, { ...FILES, 'evals/evals.json': text, ...more });
  return { analysis, spans };
}

test('a well-formed evals.json is quiet: the cases name files the skill or their own prompt mentions', () => {
  const { analysis } = withEvals(
    JSON.stringify({
      skill_name: 'charts',
      evals: [
        {
          id: 1,
          prompt: 'Chart evals/files/sales.csv by month and save it as revenue.svg',
          expected_output: 'A bar chart of revenue by month.',
          files: ['evals/files/sales.csv'],
          expectations: [
            'The output includes `chart.png`',
            'The output includes `revenue.svg`',
            'Both axes are labeled',
          ],
        },
      ],
    }),
  );
  assert.deepEqual(
    analysis.diagnostics.map((item) => item.code),
    [],
  );
});

test('invalid_evals: the shape of the guide, `skill_name` this skill, one case per id', () => {
  const { analysis, spans } = withEvals(
    '{\n  "skill_name": «"csv-analyzer"»,\n  "evals": [\n    { "id": 1, "prompt": "Chart it", "expected_output": «""», "files": [] },\n    { "id": 2, "prompt": "Chart it", "expected_output": "A chart" },\n    { "id": «2», "prompt": "Again", "expected_output": "A chart" }\n  ]\n}\n',
  );
  expectIn(analysis, 'invalid_evals', 'evals/evals.json', spans);
  const found = withCode(analysis, 'invalid_evals');
  assert.match(found[0].message, /this skill is "charts"/);
  assert.match(found[1].message, /expected_output/);
  assert.match(found[2].message, /Another case already has the id 2/);
  // Not JSON at all: one finding at the place JSON's parser stops.
  const broken = withEvals('{ "evals": [ { "id": 1, } ] }');
  assert.match(withCode(broken.analysis, 'invalid_evals')[0].message, /is not valid JSON/);
});

test('eval input files must be in the skill folder: a missing one, one outside', () => {
  const { analysis, spans } = withEvals(
    '{"evals": [{"id": 1, "prompt": "Chart it", "expected_output": "A chart", "files": ["evals/files/sales.csv", «"evals/files/missing.csv"», «"../secret.csv"»]}]}',
  );
  const [missing, outside] = spans;
  expectIn(analysis, 'missing_file', 'evals/evals.json', [missing]);
  expectIn(analysis, 'path_escapes_skill', 'evals/evals.json', [outside]);
});

test('eval_unknown_target: an expectation naming a file nothing says the skill makes, or a step it does not have', () => {
  const { analysis, spans } = withEvals(
    '{"evals": [{"id": 1, "prompt": "Chart it", "expected_output": "A chart", "expectations": [«"The output includes `summary.md`"», "The output includes `chart.png`"]}]}',
  );
  expectIn(analysis, 'eval_unknown_target', 'evals/evals.json', spans);
  const { skillMd, files } = aip03(
    'charts',
    'purpose: Chart a CSV.\ntrigger_when:\n  - asked\nsteps:\n  - name: load-table\n    description: Load the CSV.\n  - name: draw-chart\n    description: Draw it.\n',
  );
  const marked = unmark(
    '{"evals": [{"id": "chart", "prompt": "Chart it", "expected_output": "A chart", "expectations": ["step `draw-chart` draws one bar a month", «"the `load-tabel` step reads every row"»]}]}',
  );
  const aip = analyzeFixture('charts', skillMd, { ...files, 'evals/evals.json': marked.text }).analysis;
  expectIn(aip, 'eval_unknown_target', 'evals/evals.json', marked.spans);
  assert.match(withCode(aip, 'eval_unknown_target')[0].message, /did you mean `load-table`\?/);
  // The case that names `draw-chart` is drawn beside it in the preview.
  const graph = toGraphJson(aip);
  assert.deepEqual(
    graph.nodes.map((node) => [node.id, (node.evals ?? []).map((item) => item.id)]),
    [
      ['load-table', []],
      ['draw-chart', ['chart']],
    ],
  );
});

test('invalid_trigger_queries and trigger_queries_one_sided: the shape, a query twice, a set with no near misses', () => {
  const queries = unmark(
    '«[»\n  { "query": "chart my sales csv", "should_trigger": true },\n  { "query": «"Chart my  sales CSV"», "should_trigger": true },\n  { "query": "plot revenue by month", "should_trigger": «"yes"» }\n]\n',
  );
  const { analysis } = analyzeFixture('charts', SKILL, { ...FILES, 'evals/train_queries.json': queries.text });
  const [bracket, twice, yes] = queries.spans;
  expectIn(analysis, 'invalid_trigger_queries', 'evals/train_queries.json', [twice, yes]);
  expectIn(analysis, 'trigger_queries_one_sided', 'evals/train_queries.json', [bracket]);
  const balanced = analyzeFixture('charts', SKILL, {
    ...FILES,
    'evals/eval_queries.json': JSON.stringify([
      { query: 'chart my sales csv', should_trigger: true },
      { query: 'update the formulas in my Excel budget', should_trigger: false },
    ]),
  }).analysis;
  expectNone(balanced, 'trigger_queries_one_sided');
  expectNone(balanced, 'invalid_trigger_queries');
});

test('an eval workspace (`<skill>-workspace/iteration-N/`) is not part of the library: its skill snapshot is not a skill', () => {
  const fs = new MemoryFileSystem({
    [path.join(ROOT, 'charts', 'SKILL.md')]: SKILL,
    [path.join(ROOT, 'charts-workspace', 'iteration-1', 'eval-1', 'with_skill', 'outputs', 'chart.png')]: 'png',
    [path.join(ROOT, 'charts-workspace', 'skill-snapshot', 'SKILL.md')]: SKILL,
    // A folder that only looks like one stays a folder of skills.
    [path.join(ROOT, 'team-workspace', 'notes', 'SKILL.md')]: SKILL.replace('name: charts', 'name: notes'),
  });
  assert.deepEqual(
    discoverSkills(fs, [ROOT], ROOT).skills.map((skill) => path.relative(ROOT, skill.file)),
    ['charts/SKILL.md', 'team-workspace/notes/SKILL.md'],
  );
});

test("the skill-creator's names for a trigger query set are read as one: trigger-eval.json and eval_set.json", () => {
  const oneSided = JSON.stringify([{ query: 'chart my sales csv', should_trigger: true }]);
  for (const name of ['trigger-eval.json', 'trigger_evals.json', 'eval_set.json', 'eval_set (1).json', 'eval_set-2.json']) {
    const file = `evals/${name}`;
    const { analysis } = analyzeFixture('charts', SKILL, { ...FILES, [file]: oneSided });
    const found = analysis.diagnostics.filter((item) => item.code === 'trigger_queries_one_sided');
    assert.deepEqual(
      found.map((item) => path.relative(analysis.dir, item.file)),
      [file],
      `${name} is a trigger query set`,
    );
  }
  const { analysis } = analyzeFixture('charts', SKILL, { ...FILES, 'evals/eval_settings.json': oneSided });
  expectNone(analysis, 'trigger_queries_one_sided');
});
