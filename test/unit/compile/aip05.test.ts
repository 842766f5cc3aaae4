import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { analyzeSkill } from '../../../server/src/analyze';
import { compileSkill } from '../../../server/src/compile/compileSkill';
import type { CompileResult } from '../../../server/src/forms/compiled';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { analyzeFixture } from '../../support/fixture';

// compile --to aip writes AIP 0.5a1: each prose step a client_task with its instructions as template, its commands
// kept as written in a reference (never concatenated into a script), placeholders and unset variables declared as
// inputs, risky commands behind the user's approval, sections that are not steps kept as references.

const DEPLOY =
  '---\nname: deploy-app\ndescription: Deploys the app to Vercel as a preview. Use when the user asks to deploy.\n---\n\n# Deploy\n\nShip the current branch as a preview deployment.\n\n## Steps\n\n1. Gather the project state:\n\n   ```bash\n   git status --short\n   vercel whoami\n   ```\n\n2. Choose the deploy method. Never push without explicit approval:\n\n   ```bash\n   git push origin HEAD\n   ```\n\n   Or deploy with the CLI:\n\n   ```bash\n   vercel deploy [path] -y --no-wait --scope <team-slug>\n   ```\n\n3. Check the logs of the deployment:\n\n   ```bash\n   fly logs -a $APP\n   ```\n\n## Output\n\nReport the preview URL to the user.\n\n## Troubleshooting\n\nIf the build fails, read the build log before trying again.\n';

const fileOf = (result: CompileResult, file: string) =>
  result.files.find((item) => item.path === file)?.content as string | undefined;

interface Step {
  name: string;
  kind: string;
  inputs?: { name: string; type: string; description?: string }[];
  template?: string;
  references?: { path: string; description: string }[];
  inputs_to?: string;
  branch_on?: string;
  branches?: Record<string, string>;
  questions?: Record<string, { type: string; instructions: string }>;
}

function compiled(text = DEPLOY) {
  const { analysis, fs } = analyzeFixture('deploy-app', text);
  const result = compileSkill(fs, analysis, 'aip', '/out/deploy-app');
  const skillMd = fileOf(result, 'SKILL.md')!;
  const procedure = parse(skillMd.slice(skillMd.indexOf('```yaml\n') + 8, skillMd.lastIndexOf('```'))) as {
    steps: Step[];
  };
  return { result, skillMd, steps: procedure.steps };
}

test('AIP 0.5: the package checks clean as 0.5a1, with the runtime block and no script made from prose', () => {
  const { result, skillMd } = compiled();
  assert.deepEqual(
    result.diagnostics.filter((item) => item.severity === 'error'),
    [],
  );
  assert.match(skillMd, /\n {2}aip-version: "?0\.5a1"?\n---\n\n# AIP runtime — format 0\.5a1\n/);
  const memory = new MemoryFileSystem(
    Object.fromEntries(result.files.map((file) => [path.join(result.outDir, file.path), file.content])),
  );
  const back = analyzeSkill(memory, path.join(result.outDir, 'SKILL.md'));
  assert.equal(back.format, 'aip-0.5');
  assert.deepEqual(
    back.diagnostics.filter((item) => item.severity === 'error').map((item) => item.code),
    [],
  );
  assert.deepEqual(
    result.files.map((file) => file.path).filter((file) => file.startsWith('scripts/')),
    [],
  );
});

test('AIP 0.5: alternatives stay alternatives, in a reference the step cites, and the prose says where each block went', () => {
  const { result, steps } = compiled();
  const choose = steps.find((step) => step.name === 'choose-deploy-method')!;
  assert.equal(choose.kind, 'client_task');
  const commands = fileOf(result, 'references/choose-deploy-method-commands.md')!;
  assert.match(commands, /## Block 1\n\n```bash\ngit push origin HEAD\n```\n\n## Block 2\n\n```bash\nvercel deploy/);
  assert.ok(choose.references!.some((item) => item.path === 'references/choose-deploy-method-commands.md'));
  const template = fileOf(result, choose.template!)!;
  assert.match(
    template,
    /Never push without explicit approval:\n\n\s*\(command block 1 of `references\/choose-deploy-method-commands\.md`\)/,
  );
  assert.match(template, /Or deploy with the CLI:\n\n\s*\(command block 2 of/);
});

test('AIP 0.5: a risky command waits for the user’s approval, and the run ends without it', () => {
  const { steps } = compiled();
  const names = steps.map((step) => `${step.name} ${step.kind}`);
  assert.deepEqual(names, [
    'gather-project-state client_task',
    'choose-deploy-method-approval decision',
    'choose-deploy-method-gate router',
    'choose-deploy-method client_task',
    'check-logs client_task',
    'end end',
  ]);
  assert.equal(steps[0].inputs_to, 'choose-deploy-method-approval');
  const approval = steps[1];
  const [question, asked] = Object.entries(approval.questions!)[0];
  assert.equal(asked.type, 'noul');
  assert.match(asked.instructions, /`git push origin HEAD`; `vercel deploy \[path\] -y --no-wait --scope <team-slug>`/);
  assert.deepEqual(steps[2], {
    name: 'choose-deploy-method-gate',
    kind: 'router',
    description: "Run choose-deploy-method only with the user's approval; end otherwise.",
    branch_on: question,
    branches: { true: 'choose-deploy-method', false: 'end' },
  });
});

test('AIP 0.5: placeholders and variables the commands never set are declared inputs of their step', () => {
  const { steps } = compiled();
  const inputs = (name: string) => steps.find((step) => step.name === name)!.inputs!.map((item) => item.name);
  assert.deepEqual(inputs('choose-deploy-method'), ['path', 'team-slug']);
  assert.deepEqual(inputs('check-logs'), ['APP']);
  assert.match(
    steps.find((step) => step.name === 'check-logs')!.inputs![0].description!,
    /Fills `\$APP` in references\/check-logs-commands\.md \(the commands read it and never set it\)/,
  );
  assert.deepEqual(inputs('gather-project-state'), []);
});

test('AIP 0.5: a block labelled as a shell session is read as commands, as a bash block is', () => {
  for (const label of ['console', 'shell-session', 'sh-session', 'shellsession']) {
    const text = DEPLOY.replace('```bash\n   fly logs', `\`\`\`${label}\n   fly logs`);
    assert.notEqual(text, DEPLOY);
    const { steps } = compiled(text);
    assert.deepEqual(
      steps.find((step) => step.name === 'check-logs')!.inputs!.map((item) => item.name),
      ['APP'],
      label,
    );
  }
});

test('AIP 0.5: in a session at a prompt, what a command printed holds no placeholder or variable to fill', () => {
  const text = DEPLOY.replace(
    '```bash\n   fly logs -a $APP\n',
    '```console\n   $ fly logs -a $APP\n   2026-12-01 app[web] <error> request $REQUEST_ID failed\n',
  );
  assert.notEqual(text, DEPLOY);
  const { steps } = compiled(text);
  assert.deepEqual(
    steps.find((step) => step.name === 'check-logs')!.inputs!.map((item) => item.name),
    ['APP'],
  );
});

test('AIP 0.5: sections that are not steps become references every step cites', () => {
  const { result, steps } = compiled();
  assert.equal(fileOf(result, 'references/output.md'), '# Output\n\nReport the preview URL to the user.\n');
  assert.match(fileOf(result, 'references/troubleshooting.md')!, /read the build log/);
  for (const step of steps.filter((item) => item.kind === 'client_task'))
    assert.deepEqual(
      step.references!.filter((item) => !item.path.endsWith('-commands.md')).map((item) => item.path),
      ['references/output.md', 'references/troubleshooting.md'],
      step.name,
    );
});

test('AIP 0.5: --aip-version 0.3 still writes the older format', () => {
  const { analysis, fs } = analyzeFixture('deploy-app', DEPLOY);
  const result = compileSkill(fs, analysis, 'aip', '/out/deploy-app', [], '0.3');
  assert.match(
    fileOf(result, 'SKILL.md')!,
    /\n {2}aip:\n {4}spec: https:\/\/github\.com\/zach-blumenfeld\/aip\/tree\/v0\.3a3\n/,
  );
});

test('AIP 0.3: the scripts a 0.3 compile makes from prose are held to script_unresolved', () => {
  const { analysis, fs } = analyzeFixture('deploy-app', DEPLOY);
  const result = compileSkill(fs, analysis, 'aip', '/out/deploy-app', [], '0.3');
  const holes = result.diagnostics.filter((item) => item.code === 'script_unresolved').map((item) => item.message);
  assert.equal(holes.length, 2, holes.join('\n'));
  assert.match(holes[0], /`\[path\]` on line \d+ \(a placeholder\), `<team-slug>` on line \d+ \(a placeholder\)/);
  assert.match(holes[1], /`\$APP` on line \d+ \(read, never set, not an input of the step\)/);
});

const SHIP =
  "---\nname: ship\ndescription: Ships the app. Use when the user asks to ship.\n---\n\n# Ship\n\n## Steps\n\n1. Build the app bundle.\n2. Choose the release channel:\n   - **Preview**: a temporary URL for review.\n   - **Production**: the live site; only with the user's go-ahead.\n\n   ```bash\n   vercel deploy --prod\n   ```\n3. Write the release summary.\n";

test('AIP 0.5: a step that chooses between listed alternatives gets a choice decision first, then its approval; the task reads the choice', () => {
  const { analysis, fs } = analyzeFixture('ship', SHIP);
  const result = compileSkill(fs, analysis, 'aip', '/out/ship');
  assert.deepEqual(
    result.diagnostics.filter((item) => item.severity === 'error'),
    [],
  );
  const skillMd = fileOf(result, 'SKILL.md')!;
  const steps = (
    parse(skillMd.slice(skillMd.indexOf('```yaml\n') + 8, skillMd.lastIndexOf('```'))) as {
      steps: (Step & { questions?: Record<string, { type: string; criteria?: Record<string, string | null> }> })[];
    }
  ).steps;
  assert.deepEqual(
    steps.map((step) => `${step.name}:${step.kind}`),
    [
      'build-app-bundle:client_task',
      'choose-release-channel-choice:decision',
      'choose-release-channel-approval:decision',
      'choose-release-channel-gate:router',
      'choose-release-channel:client_task',
      'write-release-summary:client_task',
      'end:end',
    ],
  );
  const choice = steps[1];
  assert.equal(choice.inputs_to, 'choose-release-channel-approval');
  assert.deepEqual(choice.questions!.choose_release_channel_choice.criteria, {
    preview: 'a temporary URL for review.',
    production: "the live site; only with the user's go-ahead.",
  });
  assert.deepEqual(
    steps[4].inputs!.map((item) => item.name),
    ['choose_release_channel_choice'],
  );
  assert.match(
    fileOf(result, 'assets/choose-release-channel.md')!,
    /Take the alternative chosen before this step: \{choose_release_channel_choice\}\./,
  );
  // A run the user does not approve ends early, so `end` requires nothing the last step makes.
  assert.deepEqual(steps[6].inputs, []);
  // A step that chooses with no list of alternatives gets no decision.
  const plainChoice = analyzeFixture('ship', SHIP.replace(/ {3}- \*\*Pre[^\n]*\n {3}- \*\*Pro[^\n]*\n/, ''));
  const without = fileOf(compileSkill(plainChoice.fs, plainChoice.analysis, 'aip', '/out/ship'), 'SKILL.md')!;
  assert.doesNotMatch(without, /choose-release-channel-choice/);
});
