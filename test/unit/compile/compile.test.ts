import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../../server/src/analyze';
import { CompileRefused, compileSkill } from '../../../server/src/compile/compileSkill';
import { agentSkillName, type CompileResult } from '../../../server/src/forms/compiled';
import { defaultOutDir } from '../../../server/src/compile/targets';
import type { FlowIr } from '../../../server/src/formats/skillplus/compile/flowIr';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { aip03, analyzeFixture, ROOT } from '../../support/fixture';
import { asMeta } from '../../support/formatParts';

const examples = path.join(__dirname, '..', '..', '..', 'examples');
const disk = new NodeFileSystem();
const example = (name: string) => analyzeSkill(disk, path.join(examples, name, 'SKILL.md'));
const textOf = (result: CompileResult, file = 'SKILL.md') =>
  result.files.find((item) => item.path === file)?.content as string;
const findings = (result: CompileResult) =>
  result.diagnostics.map(
    (item) =>
      `${item.code} ${path.basename(item.file)} ${(result.texts.get(item.file) ?? '').slice(item.span.start, item.span.end)}`,
  );

/** The plan as the runtime would run it: what must be equal between the two MetaSkill forms. */
function planOf(analysis: SkillAnalysis) {
  return asMeta(analysis).metaPlan!.steps.map((step) => ({
    id: step.id,
    kind: step.kind,
    skill: step.skill?.value,
    dependsOn: step.dependsOn.map((item) => item.value).sort(),
    with: Object.fromEntries(
      step.templates
        .filter((item) => item.argument.startsWith('with.'))
        .map((item) => [item.argument, item.source.value.trimEnd()]),
    ),
  }));
}

/** A result read back from where it would be written. */
function reread(result: CompileResult, among: Record<string, string | Uint8Array> = {}): SkillAnalysis {
  const memory = new MemoryFileSystem({
    ...among,
    ...Object.fromEntries(result.files.map((file) => [path.join(result.outDir, file.path), file.content])),
  });
  return analyzeSkill(memory, path.join(result.outDir, 'SKILL.md'));
}

test('aip: numbered steps become named steps with typed outputs, later mentions become inputs, references are cited, TODOs are reported in the result', () => {
  const result = compileSkill(disk, example('release-notes'), 'aip', '/out/release-notes', [], '0.3');
  const skillMd = textOf(result);
  assert.equal(
    skillMd.slice(skillMd.indexOf('```yaml')),
    `\`\`\`yaml
purpose: Write release notes for a tagged version from the merged pull requests since the previous
  tag. Use when the user asks for release notes, a changelog entry, or a summary of what shipped in
  a version.
trigger_when:
  - When the user asks for release notes, a changelog entry, or a summary of what shipped in a
    version
steps:
  - name: find-previous-tag
    description: Find the previous tag with \`git describe --tags --abbrev=0 HEAD^\`.
    outputs:
      - name: previous-tag
        type: string
  - name: list-merged-pull-requests
    description: List the merged pull requests between the two tags.
    inputs:
      - name: previous-tag
        type: string
    outputs:
      - name: merged-pull-requests
        type: list[string]
  - name: group-them
    description: |-
      Group them as described in the style guide (references/style.md):
      features, fixes, then everything else.
    inputs:
      - name: merged-pull-requests
        type: list[string]
  - name: write-line
    description: Write one line per change, in the past tense, naming the user-visible effect.
    outputs:
      - name: line
        type: string
anti_patterns:
  - Never invent a change that is not in the list.
\`\`\`
`,
  );
  assert.match(
    skillMd,
    /^---\nname: release-notes\n[\s\S]*\nlicense: MIT\nmetadata:\n {2}author: skillgraph-examples\n {2}version: "1\.0"\n {2}aip:\n {4}spec: https:\/\/github\.com\/zach-blumenfeld\/aip\/tree\/v0\.3a3\n/,
  );
  assert.deepEqual(findings(result), ['compile_todo SKILL.md name: group-them']);
  assert.deepEqual(result.files.map((file) => file.path).sort(), [
    'SKILL.md',
    'references/style.md',
    'source/README.md',
    'source/original-SKILL.md',
    'source/procedure.schema.json',
  ]);
  const back = reread(result);
  assert.equal(back.format, 'aip-0.3');
  assert.deepEqual(
    back.model.edges.filter((edge) => edge.kind === 'data').map((edge) => `${edge.from} → ${edge.to}: ${edge.label}`),
    [
      'find-previous-tag → list-merged-pull-requests: previous-tag',
      'list-merged-pull-requests → group-them: merged-pull-requests',
    ],
  );
});

test('aip: fenced commands become the script of their step, examples its assets; Step headings win over lists; a block outside the steps is reported in the source', () => {
  const { analysis, fs } = analyzeFixture(
    'deploy',
    `---\nname: deploy\ndescription: Deploy the site. Use when the user asks to ship it.\n---\n\n# Deploy\n\nShips the site to production.\n\n\`\`\`bash\necho outside\n\`\`\`\n\n## Step 1: Build the bundle\n\n\`\`\`bash\nnpm run build\n\`\`\`\n\nThe config looks like:\n\n\`\`\`json\n{"out": "dist"}\n\`\`\`\n\n## Step 2: Upload the bundle\n\n1. Check the bundle.\n2. Upload it.\n\n\`\`\`python\nprint("upload")\n\`\`\`\n`,
  );
  const result = compileSkill(fs, analysis, 'aip', '/out/deploy', [], '0.3');
  const skillMd = textOf(result);
  assert.match(
    skillMd,
    /\nsteps:\n {2}- name: build-bundle\n {4}description: \|-\n {6}The config looks like:\n\n {6}Example: assets\/build-bundle-2\.json\n {4}script: scripts\/build-bundle\.sh\n {4}outputs:\n {6}- name: bundle\n/,
  );
  assert.match(
    skillMd,
    /\n {2}- name: upload-bundle\n[\s\S]* {4}script: scripts\/upload-bundle\.py\n {4}inputs:\n {6}- name: bundle\n/,
  );
  assert.match(skillMd, /\npurpose: Ships the site to production\.\n/);
  assert.equal(
    textOf(result, 'scripts/build-bundle.sh'),
    '#!/usr/bin/env bash\nset -euo pipefail\n# Build the bundle\n\nnpm run build\n',
  );
  assert.equal(
    textOf(result, 'scripts/upload-bundle.py'),
    '#!/usr/bin/env python3\n# Upload the bundle\n\nprint("upload")\n',
  );
  assert.equal(textOf(result, 'assets/build-bundle-2.json'), '{"out": "dist"}\n');
  // "Upload" names nothing it makes; `bundle` has no type the prose gives.
  assert.deepEqual(findings(result), [
    'compile_todo SKILL.md ```bash',
    'compile_todo SKILL.md name: bundle',
    'compile_todo SKILL.md name: upload-bundle',
  ]);
  assert.equal(result.diagnostics[0].file, analysis.file);
  assert.deepEqual(
    reread(result).diagnostics.filter((item) => item.severity === 'error'),
    [],
  );
});

test('aip: prose with no steps becomes one step, reported; first/then sentences become steps', () => {
  const whole = analyzeFixture(
    'advice',
    `---\nname: advice\ndescription: Give advice. Use when asked.\n---\n\n# Advice\n\nBe kind and brief.\n`,
  );
  const one = compileSkill(whole.fs, whole.analysis, 'aip', '/out/advice', [], '0.3');
  assert.match(textOf(one), /\nsteps:\n {2}- name: advice\n {4}description: Be kind and brief\.\n/);
  assert.deepEqual(
    findings(one).map((item) => item.split(' ')[0]),
    ['compile_todo', 'compile_todo'],
  );
  assert.match(one.diagnostics[0].message, /no steps to read/);
  const sequence = analyzeFixture(
    'tidy',
    `---\nname: tidy\ndescription: Tidy a folder. Use when asked.\n---\n\nFirst, list the files. Then delete the empty files. Finally, write a summary.\n`,
  );
  const steps = reread(compileSkill(sequence.fs, sequence.analysis, 'aip', '/out/tidy', [], '0.3')).model.nodes.map(
    (node) => node.id,
  );
  assert.deepEqual(steps, ['list-files', 'delete-empty-files', 'write-summary']);
});

test('aip: names read as nouns: how a thing is done ends its name, a noun in -ly does not', () => {
  const { fs, analysis } = analyzeFixture(
    'debug',
    `---\nname: debug\ndescription: Debug a failing build. Use when a build fails.\n---\n\n## Steps\n\n1. Read the error messages carefully.\n2. Draft a reply quickly.\n3. Collect the logs again.\n`,
  );
  const back = reread(compileSkill(fs, analysis, 'aip', '/out/debug'));
  assert.deepEqual(
    back.model.nodes.filter((node) => node.kind === 'client_task').map((node) => node.id),
    ['read-error-messages', 'draft-reply', 'collect-logs'],
  );
  const templates = compileSkill(fs, analysis, 'aip', '/out/debug').files.filter((file) =>
    file.path.startsWith('assets/'),
  );
  assert.deepEqual(
    templates.map((file) => /When done, give `([^`]+)`/.exec(String(file.content))?.[1]),
    ['error-messages', 'reply', 'logs'],
  );
});

test('aip 0.3: a step’s session at a prompt becomes a script of its commands, without the prompts or what they printed', () => {
  const { analysis, fs } = analyzeFixture(
    'tdd',
    `---\nname: tdd\ndescription: Test first. Use when adding a feature.\n---\n\n# TDD\n\n## Step 1: Watch it fail\n\n\`\`\`bash\n$ npm test -- \\\n    --runInBand\nFAIL: expected 'Email required', got undefined\n\`\`\`\n`,
  );
  const result = compileSkill(fs, analysis, 'aip', '/out/tdd', [], '0.3');
  assert.equal(
    textOf(result, 'scripts/tdd.sh'),
    '#!/usr/bin/env bash\nset -euo pipefail\n# TDD\n\nnpm test -- \\\n    --runInBand\n',
  );
});

test('agent-skill from AIP 0.3: a numbered procedure with the scripts to run, inputs and outputs; scripts kept, source/ dropped', () => {
  const fixture = aip03(
    'report',
    `purpose: Report on a table.\ntrigger_when: [A table arrives.]\nsteps:\n  - name: load\n    description: Load it.\n    script: scripts/load.py\n    inputs: [{name: path, type: string, description: Where the table is.}]\n    outputs: [{name: table, type: object}]\n  - name: summarise\n    description: Summarise the table.\n    depends_on: [load]\n    inputs: [{name: table, type: object}]\nanti_patterns: [Never guess numbers.]\n`,
  );
  const { analysis, fs } = analyzeFixture('report', fixture.skillMd, {
    ...fixture.files,
    'scripts/load.py': 'print(1)\n',
  });
  const result = compileSkill(fs, analysis, 'agent-skill', '/out/report-plain');
  assert.equal(
    textOf(result),
    `---
name: report-plain
description: An AIP test skill. Use when testing.
---

# Report

Report on a table.

## When to use

- A table arrives.

## What you need from the user

- \`path\` (string): Where the table is.

## Procedure

### 1. load

Load it.

- Run \`scripts/load.py\`.
- Needs: \`path\` (string): Where the table is.
- Produces: \`table\` (object)

### 2. summarise

Summarise the table.

- Needs: \`table\` (object)
- Start after: load

## Never

- Never guess numbers.
`,
  );
  assert.deepEqual(
    result.files.map((file) => file.path),
    ['SKILL.md', 'scripts/load.py'],
  );
  assert.deepEqual(result.diagnostics, []);
});

test('agent-skill from a MetaSkill: steps in dependency order with their skill, guard, fallback and instruction; MetaSkill keys dropped; fallback prose kept', () => {
  const result = compileSkill(disk, example('weekly-digest'), 'agent-skill', '/out/weekly-digest-plain');
  const skillMd = textOf(result);
  const frontmatter = skillMd.slice(0, skillMd.indexOf('\n---\n'));
  for (const key of ['kind:', 'composition:', 'meta_priority:', 'final_text_mode:', 'triggers:'])
    assert.ok(!frontmatter.includes(key), key);
  assert.deepEqual(
    [...skillMd.matchAll(/^### (.*)$/gm)].map((match) => match[1]),
    [
      '1. Scope',
      '2. metrics — the `csv-report` skill',
      '3. shipped — the `release-notes` skill',
      '4. digest',
      '5. digest_fallback',
    ],
  );
  assert.match(
    skillMd,
    /### 4\. digest\n\n- Answer directly \(no skill\)\.\n- Start after: `metrics`, `shipped`\.\n- If it fails, run step `digest_fallback` instead\.\n/,
  );
  assert.match(skillMd, /Your answer is the output of step `digest`\./);
  assert.match(
    skillMd,
    /`with\.task`:\n\n```text\nRelease notes for what shipped this week\.\nRequest: \{\{ inputs\.user_message \| xml_escape \| truncate\(500\) \}\}\n```/,
  );
  assert.deepEqual(result.diagnostics, []);
  assert.equal(reread(result).format, 'agent-skill');
});

test('agent-skill from skill+: the brief, the map, tips as "When …" sections and rules with what to do when they fail; the flow, State, tips and rules files not kept', () => {
  const result = compileSkill(disk, example('trip-planner'), 'agent-skill', '/out/trip-plain');
  const skillMd = textOf(result);
  assert.match(
    skillMd,
    /## Map\n\nWork through the stages in order; inside a stage, follow the nodes as listed\.\n\n- \*\*ask\*\*/,
  );
  assert.match(
    skillMd,
    /\n {2}- `where` \(ask\): Where does \{traveller\} want to go\? \(record it as `destination`\)\n/,
  );
  assert.match(skillMd, /\n## Tips\n\n### When /);
  assert.match(skillMd, /\n## Rules\n\n### /);
  assert.ok(
    !result.files.some((file) => /^(flow\.py|state\.py|rules\/|spec\.md)/.test(file.path)),
    result.files.map((file) => file.path).join(', '),
  );
  assert.ok(!/skillplus-/.test(skillMd));
  assert.deepEqual(result.diagnostics, []);
});

test('metaskill-sop → metaskill → metaskill-sop: the same plan each way, every dependency written out in composition form', () => {
  const sop = example('release-digest');
  const composition = compileSkill(disk, sop, 'metaskill', path.join(examples, 'release-digest'));
  assert.deepEqual(composition.diagnostics, []);
  assert.match(
    textOf(composition),
    /\nkind: meta\n[\s\S]*\n {4}- id: metrics\n {6}skill: csv-report\n {4}- id: digest\n {6}kind: agent\n {6}skill: release-notes\n {6}depends_on:\n {8}- notes\n {8}- metrics\n/,
  );
  const asMeta = reread(composition, {
    [path.join(examples, 'csv-report', 'SKILL.md')]: disk.readFile(path.join(examples, 'csv-report', 'SKILL.md'))!,
    [path.join(examples, 'release-notes', 'SKILL.md')]: disk.readFile(
      path.join(examples, 'release-notes', 'SKILL.md'),
    )!,
  });
  assert.equal(asMeta.format, 'metaskill');
  assert.deepEqual(planOf(asMeta), planOf(sop));
  const back = compileSkill(disk, asMeta, 'metaskill-sop', path.join(examples, 'release-digest'));
  assert.deepEqual(back.diagnostics, []);
  assert.match(
    textOf(back),
    /## Phase 1: notes, metrics \[parallel\]\nInvoke `release-notes` as agent with:\n- task: `Release notes for \{\{ inputs\.user_message \| xml_escape \| truncate\(300\) \}\}`\nSave as `notes`\.\n\nRun `csv-report` as agent\. Save as `metrics`\.\n\n## Phase 2: digest\n/,
  );
  assert.deepEqual(planOf(reread(back)), planOf(sop));
});

test('metaskill-sop refuses what an SOP cannot say, at each key, and writes nothing', () => {
  const result = compileSkill(disk, example('weekly-digest'), 'metaskill-sop', '/out/weekly-digest');
  assert.equal(result.files.length, 0);
  assert.deepEqual([...new Set(result.diagnostics.map((item) => item.code))], ['compile_unsupported']);
  assert.deepEqual(findings(result), [
    'compile_unsupported SKILL.md label',
    'compile_unsupported SKILL.md clarify',
    'compile_unsupported SKILL.md user_input',
    'compile_unsupported SKILL.md on_failure',
    'compile_unsupported SKILL.md llm_chat',
    'compile_unsupported SKILL.md llm_chat',
  ]);
});

test('ir of skill+ is the flow IR: stages, nodes with their arguments, seq/case/loop/fanout edges, State fields with defaults and inputs', () => {
  const result = compileSkill(disk, example('trip-planner'), 'ir', path.join(examples, 'trip-planner'));
  const ir = JSON.parse(textOf(result, 'skill.ir.json')) as FlowIr;
  assert.equal(ir.version, '0.1');
  assert.equal(ir.skill, 'trip-planner');
  assert.deepEqual(ir.state?.fields.traveller, { type: 'str', input: true });
  assert.deepEqual(ir.state?.fields.budget, { type: 'Literal["low", "mid", "high"]', default: 'mid' });
  assert.deepEqual([...new Set(ir.edges.map((edge) => edge.kind))].sort(), ['case', 'fanout', 'loop', 'seq']);
  assert.deepEqual(
    ir.edges.filter((edge) => edge.kind === 'loop'),
    [
      { from: 'refine', to: 'fill', kind: 'loop', label: 'round' },
      { from: 'fill', to: 'refine', kind: 'loop' },
    ],
  );
  assert.deepEqual(ir.nodes[0], {
    id: 'where',
    kind: 'ask',
    stage: 'ask',
    text: 'Where does {traveller} want to go?',
    into: 'destination',
    loc: { file: 'flow.py', line: 8, col: 19 },
  });
  assert.deepEqual(ir.diagnostics, []);
});

test('targets fit the format; a skill with errors compiles only to IR, which carries them', () => {
  assert.throws(() => compileSkill(disk, example('release-notes'), 'agent-skill', '/out/x'), CompileRefused);
  // An AIP 0.5 skill is never compiled to AIP; a 0.3 one only migrates to 0.5 (aip03Migration.test.ts).
  assert.throws(() => compileSkill(disk, example('ticket-triage'), 'aip', '/out/x'), CompileRefused);
  assert.throws(() => compileSkill(disk, example('csv-report'), 'aip', '/out/x', [], '0.3'), CompileRefused);
  assert.throws(() => compileSkill(disk, example('weekly-digest'), 'metaskill', '/out/x'), CompileRefused);
  const broken = example('mistakes/broken-procedure');
  const plain = compileSkill(disk, broken, 'agent-skill', '/out/x');
  assert.equal(plain.files.length, 0);
  assert.ok(plain.diagnostics.length > 0 && plain.diagnostics.every((item) => item.severity === 'error'));
  const ir = JSON.parse(textOf(compileSkill(disk, broken, 'ir', broken.dir), 'skill.ir.json'));
  assert.equal(ir.diagnostics.length, broken.diagnostics.length);
});

test('default output folders: beside the skill, named for the target; Agent Skills targets get a valid name', () => {
  assert.equal(
    defaultOutDir('/w/skills/AwesomeWebpageMetaSkill', 'AwesomeWebpageMetaSkill', 'agent-skill'),
    '/w/skills/compiled-agent-skill/awesome-webpage-meta-skill',
  );
  assert.equal(defaultOutDir('/w/skills/review', 'Review', 'metaskill-sop'), '/w/skills/compiled-metaskill-sop/Review');
  assert.equal(defaultOutDir('/w/skills/review', '../../etc', 'aip'), '/w/skills/compiled-aip/review');
  assert.equal(agentSkillName('--My  Skill__v2--'), 'my-skill-v2');
  assert.equal(agentSkillName('日本'), 'skill');
  assert.equal(ROOT, '/skills');
});
