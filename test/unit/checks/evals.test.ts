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
  for (const name of [
    'trigger-eval.json',
    'trigger_evals.json',
    'eval_set.json',
    'eval_set (1).json',
    'eval_set-2.json',
  ]) {
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

test('evals.json written as routing cases is a trigger query set: never test cases, checked as a set', () => {
  // A flat list with the query under `prompt`: a query twice, and no near miss.
  const flat = unmark(
    '«[»\n  { "prompt": "chart my sales csv", "should_trigger": true },\n  { "prompt": «"Chart my sales CSV"», "should_trigger": true }\n]\n',
  );
  const { analysis } = withEvals(flat.text);
  const [bracket, twice] = flat.spans;
  expectNone(analysis, 'invalid_evals');
  expectIn(analysis, 'invalid_trigger_queries', 'evals/evals.json', [twice]);
  expectIn(analysis, 'trigger_queries_one_sided', 'evals/evals.json', [bracket]);
  // Wrapped in a map (`evals`, or another key), with the query under `input`: balanced and distinct, so quiet.
  for (const key of ['evals', 'evaluations']) {
    const wrapped = withEvals(
      JSON.stringify({
        skill: 'charts',
        [key]: [
          { input: 'plot revenue by month from data.csv', should_trigger: true },
          { input: 'load this csv into postgres', should_trigger: false },
        ],
      }),
    ).analysis;
    assert.deepEqual(
      wrapped.diagnostics.map((item) => item.code),
      [],
      key,
    );
  }
  // A wrapped set is checked where it is: its one-sidedness at its own bracket, an item's problems at the item.
  const inMap = unmark(
    '{\n  "evals": «[»\n    { "query": "chart it", "should_trigger": true },\n    { "query": "plot it", "should_trigger": «"yes"» }\n  ]\n}\n',
  );
  const one = withEvals(inMap.text).analysis;
  expectIn(one, 'trigger_queries_one_sided', 'evals/evals.json', [inMap.spans[0]]);
  expectIn(one, 'invalid_trigger_queries', 'evals/evals.json', [inMap.spans[1]]);
});

test('invalid_evals: a problem many cases share is one finding naming them, at the first; one case alone keeps its own', () => {
  // A missing key is reported at the case's first key, as it was when each case had its own finding.
  const cases = [1, 2, 3, 4, 5, 6].map((id) => `    { ${id === 1 ? '«"id"»' : '"id"'}: ${id}, "prompt": "Chart it" }`);
  const { analysis, spans } = withEvals(
    `{\n  "evals": [\n${cases.join(',\n')},\n    { «"id"»: 7, "expected_output": "A chart" }\n  ]\n}\n`,
  );
  // Six cases have no `expected_output`: one finding at the first; case 7 alone has no `prompt`.
  expectIn(analysis, 'invalid_evals', 'evals/evals.json', spans);
  const [shared, alone] = withCode(analysis, 'invalid_evals').map((item) => item.message);
  assert.match(shared, /^Cases 1, 2, 3 and 3 more have no `expected_output`\. What success looks like/);
  assert.match(alone, /^`evals\[6\]` is missing the required key `prompt`/);
  // Cases without an id are named by their place in the list, counted from 1.
  const unnamed = unmark(
    '{"evals": [{ "id": 1, "prompt": "Chart it", "expected_output": "A chart" }, {"prompt": «""», "expected_output": "A chart", "id": 2}, {"expected_output": "A chart", "prompt": "", "id": 3}]}',
  );
  const empty = withEvals(unnamed.text).analysis;
  expectIn(empty, 'invalid_evals', 'evals/evals.json', unnamed.spans);
  assert.match(withCode(empty, 'invalid_evals')[0].message, /^In cases 2 and 3, `prompt` must not be empty\./);
  const noIds = withEvals(
    '{"evals": [{ "prompt": "a", "expected_output": "b" }, { "prompt": "c", "expected_output": "d" }]}',
  );
  assert.match(withCode(noIds.analysis, 'invalid_evals')[0].message, /^Items 1 and 2 of `evals` have no `id`\./);
});

test('invalid_evals: an evals.json that is neither test cases nor a trigger query set is one finding saying so', () => {
  const { analysis, spans } = withEvals(
    '«»{\n  "skill": "charts",\n  "positive": [{ "prompt": "chart my csv", "expected": "trigger" }],\n  "negative": [{ "prompt": "load it into postgres", "expected": "no-trigger" }]\n}\n',
  );
  expectIn(analysis, 'invalid_evals', 'evals/evals.json', spans);
  assert.match(
    withCode(analysis, 'invalid_evals')[0].message,
    /has no `evals` list of test cases .* its keys are `skill`, `positive` and `negative`/,
  );
  // A list of cases not labelled `should_trigger`: reported on the list, where the schema reported it.
  const list = unmark('«[{ "id": 1, "prompt": "Chart it", "expected_output": "A chart" }]»');
  const listed = withEvals(list.text).analysis;
  expectIn(listed, 'invalid_evals', 'evals/evals.json', list.spans);
  assert.match(
    withCode(listed, 'invalid_evals')[0].message,
    /it is a list, and none of its items says `should_trigger`/,
  );
});

test('invalid_trigger_queries: items with no query text, or no `should_trigger`, are one finding per kind', () => {
  const queries = unmark(
    '[\n  { «"should_trigger"»: true },\n  { "should_trigger": false },\n  { «"query"»: "chart my csv" },\n  { "query": "plot it", "should_trigger": true },\n  { "query": "load it into postgres" }\n]\n',
  );
  const { analysis } = analyzeFixture('charts', SKILL, { ...FILES, 'evals/train_queries.json': queries.text });
  expectIn(analysis, 'invalid_trigger_queries', 'evals/train_queries.json', queries.spans);
  const messages = withCode(analysis, 'invalid_trigger_queries').map((item) => item.message);
  assert.match(messages[0], /^Items 1 and 2 have no query: the prompt to run goes under `query`/);
  assert.match(messages[1], /^Items 3 and 5 have no `should_trigger`\./);
});
