import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { GOVERNANCE_QUERIES } from '../../../server/src/library/governanceQueries';
import { buildLibrary } from '../../../server/src/library/libraryModel';
import { skillProcedure } from '../../../server/src/library/skillProcedure';
import { skillScripts } from '../../../server/src/library/skillScripts';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { writeIn } from '../../support/cliRun';
import { DEPLOY_SCRIPT, writeGovernanceLibrary } from '../../support/governanceLibrary';
import { libraryGraphOf } from '../../support/libraryGraphOf';
import { asAip } from '../../support/formatParts';

const fs = new NodeFileSystem();
const library = writeGovernanceLibrary();
after(() => rmSync(library, { recursive: true, force: true }));

/** The steps of an AIP 0.3 procedure with these steps (name: description), with the marks each was given. */
function marks(steps: Record<string, string>, kind?: string) {
  const root = mkdtempSync(path.join(tmpdir(), 'sg-marks-'));
  const file = writeIn(
    root,
    'marks/SKILL.md',
    `---\nname: marks\ndescription: Marks steps. Use in tests.\n---\n\n\`\`\`yaml\npurpose: Mark.\ntrigger_when:\n  - Testing.\nsteps:\n${Object.entries(
      steps,
    )
      .map(([name, description]) => `  - name: ${name}\n    description: ${JSON.stringify(description)}${kind ?? ''}\n`)
      .join('')}\`\`\`\n`,
  );
  const analysis = analyzeSkill(fs, file);
  const procedure = skillProcedure(analysis.model, asAip(analysis).procedure?.value)!;
  rmSync(root, { recursive: true, force: true });
  return Object.fromEntries(procedure.steps.map((step) => [step.id, [step.irreversible, step.gate]]));
}

test('a step is irreversible by the verb of its name or the first word of its description, never by a noun', () => {
  assert.deepEqual(
    marks({
      'publish-doc': 'Put the doc where readers find it.',
      'upload-bundle': 'Deletes the old bundle first, then uploads.',
      'pull-timeline': 'Build the timeline from alerts and the deploy history.',
      'lookup-order': 'Record the payment method and total.',
      'filter-rows': 'Keep rows; drop the ones without a date.',
      'compute-refund': 'Work out how much to give back.',
    }),
    {
      'publish-doc': [true, false],
      'upload-bundle': [true, false],
      'pull-timeline': [false, false],
      'lookup-order': [false, false],
      'filter-rows': [false, false],
      'compute-refund': [false, false],
    },
  );
});

test('a step is a gate by its words (approve, review, validate, check, dry run, gate) anywhere in it', () => {
  assert.deepEqual(
    marks({
      'review-draft': 'Read it through.',
      'final-step': 'Ask the owner to approve the release.',
      'run-tests': 'Run the suite as a dry run.',
      'write-draft': 'Write the first draft.',
    }),
    {
      'review-draft': [false, true],
      'final-step': [false, true],
      'run-tests': [false, true],
      'write-draft': [false, false],
    },
  );
});

test("a skill's scripts: the same bytes are one hash; links and paths leaving the skill are not read", () => {
  const dir = path.join(library, 'deploy-site');
  symlinkSync('/etc/hostname', path.join(dir, 'scripts', 'outside.sh'));
  writeFileSync(path.join(library, 'secret.sh'), 'not the skill’s');
  const scripts = skillScripts(fs, dir, ['../secret.sh', 'scripts/deploy.sh', '/etc/hostname']);
  assert.deepEqual(
    scripts.map((script) => [script.path, script.size]),
    [
      ['scripts/build.sh', 24],
      ['scripts/deploy.sh', DEPLOY_SCRIPT.length],
    ],
  );
  const other = skillScripts(fs, path.join(library, 'release-site'));
  assert.equal(other[0].hash, scripts[1].hash, 'one script copied into two skills is one hash');
  assert.match(other[0].hash, /^sha256:[0-9a-f]{64}$/);
});

test('two steps named alike are one node, with the properties of the last (as MERGE leaves them)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sg-twice-'));
  const file = writeIn(
    root,
    'twice/SKILL.md',
    '---\nname: twice\ndescription: Twice. Use in tests.\n---\n\n```yaml\npurpose: Twice.\ntrigger_when:\n  - Testing.\nsteps:\n  - name: send\n    description: First.\n  - name: send\n    description: Second.\n```\n',
  );
  const analysis = analyzeSkill(fs, file);
  const built = buildLibrary(fs, [file], root);
  const graph = libraryGraphOf(
    built,
    new Map([[file, { format: analysis.format, procedure: skillProcedure(analysis.model)!, scripts: [] }]]),
    (shown) => path.relative(root, shown),
  );
  const steps = graph.nodes.filter((node) => node.label === 'Step');
  assert.deepEqual(
    steps.map((step) => [step.key, step.properties.description]),
    [['twice/SKILL.md#send', 'Second.']],
  );
  rmSync(root, { recursive: true, force: true });
});

test('every governance query has a question, a reason, Cypher with an order, and no rows for an empty library', () => {
  for (const query of GOVERNANCE_QUERIES) {
    assert.match(query.question, /^Which .+\?$/);
    assert.ok(query.why.length > 40, query.name);
    // The rows' order is the Cypher's, so the engine's answer and this one compare row by row.
    assert.match(query.cypher, /^MATCH .+ RETURN .+ ORDER BY [a-z_]+( DESC)?(, [a-z_]+( DESC)?)*$/);
    const built = buildLibrary(fs, [], library);
    assert.deepEqual(query.answer(libraryGraphOf(built, new Map(), (file) => file)), [], 'an empty library: no rows');
  }
});
