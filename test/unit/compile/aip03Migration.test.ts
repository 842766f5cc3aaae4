import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { analyzeSkill } from '../../../server/src/analyze';
import { compileSkill, CompileRefused } from '../../../server/src/compile/compileSkill';
import type { CompileResult } from '../../../server/src/forms/compiled';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { analyzeFixture } from '../../support/fixture';

// compile --to aip on an AIP 0.3 skill migrates it to 0.5a1: what 0.5 dropped (depends_on, one_of, parallel,
// nullable inputs, outputs, the guidance sections) is moved into the package, never lost.

const SCHEMA_ID =
  'https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json';
const SKILL = `---
name: survey-sites
description: Surveys sites and reports on them. Use when the user asks for a site survey.
metadata:
  owner: field-team
  tags: [survey, field]
  aip:
    spec: https://github.com/zach-blumenfeld/aip/tree/v0.3a3
    schemaId: ${SCHEMA_ID}
---

\`\`\`yaml
purpose: Survey the sites a user names and report what was found.
trigger_when:
  - The user asks for a site survey.
scope_and_approval: Read-only. Never contact a site without the user's approval.
modes:
  - name: quick
    body: One pass per site.
steps:
  - name: report
    description: Write the report from the {site} measurements. See references/format.md.
    depends_on: [measure, weather]
    inputs:
      - name: measurements
        type: list[object]
      - name: forecast
        type: dict
    outputs:
      - name: report-text
        type: string
  - name: list_sites
    description: List the sites to survey.
    depends_on: []
    script: scripts/list_sites.py
    inputs:
      - name: region
        type: string
      - name: limit
        type: integer
        nullable: true
    outputs:
      - name: sites
        type: list[string]
  - name: measure
    description: Measure each site with the method that fits it.
    depends_on: [list_sites]
    one_of: [laser, tape]
    parallel: true
    inputs:
      - name: sites
        type: list[string]
    outputs:
      - name: measurements
        type: list[object]
  - name: weather
    description: Fetch the forecast for the sites.
    depends_on: [list_sites]
    script: scripts/weather.py
    inputs:
      - name: sites
        type: list[string]
    outputs:
      - name: forecast
        type: object
      - name: notes
anti_patterns:
  - Never guess a measurement.
\`\`\`
`;

const FILES = {
  'scripts/list_sites.py':
    'import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--region")\nprint(parser.parse_args().region)\n',
  'scripts/weather.py':
    'import json, sys\nstate = json.load(sys.stdin)["currentState"]\nprint(json.dumps({"forecast": {}, "notes": ""}))\n',
  'references/format.md': '# Format\n',
  'references/modes.md': '# Modes of the instruments\n',
  // A schema whose $id is not the one named: an AIP 0.3 packaging error that 0.5 has no place for.
  'source/procedure.schema.json': JSON.stringify({ $id: 'https://example.com/other.schema.json' }),
  'source/README.md': '# Source\n\nHand-written in AIP 0.3.\n',
};

interface Step {
  name: string;
  kind: string;
  description?: string;
  inputs?: { name: string; type: string; description?: string }[];
  template?: string;
  script?: string;
  references?: { path: string; description: string }[];
  inputs_to?: string;
  questions?: Record<string, { type: string; instructions: string; criteria?: Record<string, string | null> }>;
}

/** A file of the result as text (kept files are their bytes). */
const fileOf = (result: CompileResult, file: string) => {
  const content = result.files.find((item) => item.path === file)?.content;
  return content === undefined
    ? undefined
    : typeof content === 'string'
      ? content
      : Buffer.from(content).toString('utf8');
};

function migrated() {
  const { analysis, fs } = analyzeFixture('survey-sites', SKILL, FILES);
  assert.equal(analysis.format, 'aip-0.3');
  assert.ok(
    analysis.diagnostics.some((item) => item.code === 'schema_id_mismatch'),
    'the source has the 0.3 packaging error the migration leaves behind',
  );
  const result = compileSkill(fs, analysis, 'aip', '/out/survey-sites');
  const skillMd = fileOf(result, 'SKILL.md')!;
  const procedure = parse(skillMd.slice(skillMd.indexOf('```yaml\n') + 8, skillMd.lastIndexOf('```'))) as {
    steps: Step[];
    anti_patterns?: string[];
    purpose: string;
  };
  const byName = new Map(procedure.steps.map((step) => [step.name, step]));
  return { analysis, result, skillMd, procedure, steps: procedure.steps, byName };
}

test('AIP 0.3 to 0.5: the package checks clean as 0.5a1, read back from where it is written', () => {
  const { result, skillMd } = migrated();
  assert.deepEqual(
    result.diagnostics.filter((item) => item.severity === 'error').map((item) => item.message),
    [],
  );
  const memory = new MemoryFileSystem(
    Object.fromEntries(result.files.map((file) => [path.join(result.outDir, file.path), file.content])),
  );
  const back = analyzeSkill(memory, path.join(result.outDir, 'SKILL.md'));
  assert.equal(back.format, 'aip-0.5');
  assert.deepEqual(
    back.diagnostics.filter((item) => item.severity !== 'information').map((item) => `${item.code} ${item.message}`),
    [],
  );
  assert.doesNotMatch(skillMd, /\*a\d|&a\d/, 'no YAML aliases: every step reads on its own');
});

test('AIP 0.3 to 0.5: metadata.aip becomes aip-version, string metadata stays, a list is reported at its key', () => {
  const { result, skillMd, analysis } = migrated();
  const frontmatter = parse(skillMd.slice(4, skillMd.indexOf('\n---\n'))) as { metadata: Record<string, unknown> };
  assert.deepEqual(frontmatter.metadata, { owner: 'field-team', 'aip-version': '0.5a1' });
  const tags = result.diagnostics.filter((item) => item.file === analysis.file && item.code === 'compile_todo');
  assert.deepEqual(
    tags.map((item) => analysis.text.slice(item.span.start, item.span.end)),
    ['tags', 'notes'],
  );
  assert.match(tags[0].message, /a list; a package's metadata holds strings only/);
  assert.match(tags[1].message, /`notes` has no type, which AIP 0\.5 requires/);
});

test('AIP 0.3 to 0.5: steps run in an order that keeps every depends_on, each handing over to the next, then end', () => {
  const { steps } = migrated();
  assert.deepEqual(
    steps.map((step) => `${step.name}:${step.kind}→${step.inputs_to ?? ''}`),
    [
      'list-sites:client_task→measure-choice',
      'measure-choice:decision→measure',
      'measure:client_task→weather',
      'weather:execution→report',
      'report:client_task→end',
      'end:end→',
    ],
  );
});

test('AIP 0.3 to 0.5: one_of becomes a choice decision whose answer the step declares and its template reads', () => {
  const { byName, result } = migrated();
  const choice = byName.get('measure-choice')!;
  assert.deepEqual(Object.keys(choice.questions!), ['measure_choice']);
  assert.equal(choice.questions!.measure_choice.type, 'choice');
  assert.deepEqual(choice.questions!.measure_choice.criteria, { laser: null, tape: null });
  assert.deepEqual(
    byName.get('measure')!.inputs!.map((input) => `${input.name}:${input.type}`),
    ['sites:list[*]', 'measure_choice:string'],
  );
  const template = fileOf(result, 'assets/measure.md')!;
  assert.match(template, /Take the alternative chosen before this step: \{measure_choice\}\./);
  assert.match(template, /Its sub-tasks may run in parallel\./);
  assert.match(template, /When done, give: `measurements` \(list\[\*\]\)\./);
});

test('AIP 0.3 to 0.5: a nullable input is optional in the template, not a declared input; types map to the 0.5 vocabulary', () => {
  const { byName, result } = migrated();
  assert.deepEqual(
    byName.get('list-sites')!.inputs!.map((input) => `${input.name}:${input.type}`),
    ['region:string'],
  );
  assert.match(fileOf(result, 'assets/list-sites.md')!, /may be absent\):\n- `limit` \(integer\)/);
  assert.deepEqual(
    byName.get('report')!.inputs!.map((input) => `${input.name}:${input.type}`),
    ['measurements:list[*]', 'forecast:object'],
  );
  // The end holds what the last steps leave.
  assert.deepEqual(
    byName.get('end')!.inputs!.map((input) => input.name),
    ['report-text'],
  );
});

test('AIP 0.3 to 0.5: a command-line script runs from a client task (reported); one that reads currentState is an execution step', () => {
  const { byName, result, skillMd } = migrated();
  const list = byName.get('list-sites')!;
  assert.equal(list.kind, 'client_task');
  assert.match(fileOf(result, list.template!)!, /Run `scripts\/list_sites\.py` as described above/);
  const todo = result.diagnostics.filter(
    (item) => item.file === '/out/survey-sites/SKILL.md' && item.code === 'compile_todo',
  );
  assert.deepEqual(
    todo.map((item) => `${item.code}:${skillMd.slice(item.span.start, item.span.end)}`),
    ['compile_todo:name: list-sites'],
  );
  assert.match(todo[0].message, /JSON on stdin/);
  assert.equal(byName.get('weather')!.script, 'scripts/weather.py');
  assert.equal(fileOf(result, 'scripts/list_sites.py'), FILES['scripts/list_sites.py']);
});

test('AIP 0.3 to 0.5: the sections 0.5 dropped become references every client task cites, beside the ones a step names', () => {
  const { byName, result } = migrated();
  assert.equal(
    fileOf(result, 'references/scope-and-approval.md'),
    "# Scope and approval\n\nRead-only. Never contact a site without the user's approval.\n",
  );
  // references/modes.md is the skill's own file: the dropped `modes` go beside it, not over it.
  assert.equal(fileOf(result, 'references/modes.md'), FILES['references/modes.md']);
  assert.equal(fileOf(result, 'references/modes-2.md'), '# Modes\n\n- **quick**: One pass per site.\n');
  assert.deepEqual(
    byName.get('report')!.references!.map((item) => item.path),
    ['references/format.md', 'references/scope-and-approval.md', 'references/modes-2.md'],
  );
  assert.match(fileOf(result, 'assets/report.md')!, /Write the report from the \{\{site\}\} measurements\./);
});

test('AIP 0.3 to 0.5: the 0.3 SKILL.md is kept in source/, the schema copy goes, the provenance says what moved', () => {
  const { result, analysis } = migrated();
  const paths = result.files.map((file) => file.path).sort();
  assert.equal(fileOf(result, 'source/aip-0.3-SKILL.md'), analysis.text);
  assert.ok(!paths.includes('source/procedure.schema.json'));
  assert.ok(paths.includes('references/modes.md') && paths.includes('scripts/list_sites.py'), paths.join(' '));
  const readme = fileOf(result, 'source/README.md')!;
  assert.match(readme, /^# Source\n\nHand-written in AIP 0\.3\.\n\n## Migrated to AIP 0\.5a1\n/);
  assert.match(readme, /`scope_and_approval`, `modes`/);
});

test('AIP 0.3 to 0.5: --aip-version 0.3 on an AIP 0.3 skill is refused, and an error outside the 0.3 packaging still blocks', () => {
  const { analysis, fs } = analyzeFixture('survey-sites', SKILL, FILES);
  assert.throws(() => compileSkill(fs, analysis, 'aip', '/out/survey-sites', [], '0.3'), CompileRefused);
  const broken = analyzeFixture(
    'survey-sites',
    SKILL.replace('depends_on: [list_sites]\n    one_of', 'depends_on: [nowhere]\n    one_of'),
    FILES,
  );
  const result = compileSkill(broken.fs, broken.analysis, 'aip', '/out/survey-sites');
  assert.equal(result.files.length, 0);
  assert.deepEqual(
    result.diagnostics.map((item) => item.code),
    ['unknown_dependency'],
  );
});
