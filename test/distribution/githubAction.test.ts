import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { parse } from 'yaml';
import { commitAll, gitIn } from '../support/cliRun';
import { REPO, trackedCopy } from '../support/trackedCopy';

// The composite action of action.yml, run as a runner would run it, minus
// the two steps that are other actions (set up Node: this machine has it;
// upload to code scanning: GitHub's service): each `run` step in bash with
// `-eo pipefail`, its `${{ inputs.* }}` and `${{ github.action_path }}`
// filled in, the action in a copy of this repository's tracked files.

interface Step {
  name: string;
  uses?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { default: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(path.join(REPO, 'action.yml'), 'utf8')) as Action;
let actionPath: string;
let workspace: string;

/** Fills in `${{ inputs.* }}` and `${{ github.* }}` (the action's path; what `github` holds, else empty). */
function expand(text: string, inputs: Record<string, string>, github: Record<string, string> = {}): string {
  return text.replace(/\$\{\{\s*(inputs\.([\w-]+)|github\.[\w.]+)\s*\}\}/g, (_, whole: string, name?: string) => {
    if (whole === 'github.action_path') return actionPath;
    if (whole.startsWith('github.')) return github[whole] ?? '';
    assert.ok(name! in action.inputs, `unknown input ${name}`);
    return inputs[name!] ?? action.inputs[name!].default;
  });
}

function runStep(
  step: Step,
  inputs: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(value, inputs)]));
  const cwd = step['working-directory'] ? expand(step['working-directory'], inputs) : workspace;
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run!, inputs)], {
    cwd,
    env: { ...process.env, ...env, GITHUB_ACTION_PATH: actionPath, GITHUB_WORKSPACE: workspace },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const check = (inputs: Record<string, string>) =>
  runStep(
    action.runs.steps.find((step) => step.name === 'Check the skills')!,
    inputs,
  );

before(() => {
  actionPath = trackedCopy('sg-action-');
  workspace = mkdtempSync(path.join(tmpdir(), 'sg-action-ws-'));
  cpSync(path.join(REPO, 'examples'), workspace, { recursive: true });
  // A skill with a warning and nothing worse, for max-warnings.
  mkdirSync(path.join(workspace, 'warned'));
  writeFileSync(
    path.join(workspace, 'warned', 'SKILL.md'),
    '---\nname: warned\ndescription: Shows one warning. Use when testing max-warnings.\nfoo: bar\n---\n\n# Warned\n',
  );
  const build = runStep(
    action.runs.steps.find((step) => step.name === 'Build Skillgraph')!,
    {},
  );
  assert.equal(build.status, 0, build.stderr);
});

test('the action is composite: Node first, the check, then the SARIF upload only when asked (and even after a failed check)', () => {
  assert.equal(action.runs.using, 'composite');
  const steps = action.runs.steps;
  assert.match(steps[0].uses ?? '', /^actions\/setup-node@v\d+$/);
  assert.equal(steps[0].with?.['node-version'], '${{ inputs.node-version }}');
  const upload = steps.at(-1)!;
  assert.match(upload.uses ?? '', /^github\/codeql-action\/upload-sarif@v\d+$/);
  assert.equal(upload.if, "${{ always() && inputs.sarif != '' }}");
  assert.equal(upload.with?.sarif_file, '${{ inputs.sarif }}');
  assert.deepEqual(Object.keys(action.inputs).sort(), [
    'baseline',
    'diff',
    'github-token',
    'max-warnings',
    'node-version',
    'paths',
    'profile',
    'sarif',
    'strict',
  ]);
});

test('clean skills: exit 0, notes as annotations on their files', () => {
  const { status, stdout, stderr } = check({ paths: 'csv-report release-notes' });
  assert.equal(status, 0, stderr);
  assert.match(
    stdout,
    /^::notice file=csv-report\/SKILL\.md,line=28,col=15,endLine=28,endColumn=23,title=skillgraph external_input::/m,
  );
  assert.doesNotMatch(stdout, /^::(error|warning)/m);
});

test('errors fail the step; paths on separate lines are all checked', () => {
  const { status, stdout } = check({ paths: 'mistakes/broken-procedure\nmistakes/skipped-skill' });
  assert.equal(status, 1);
  assert.match(
    stdout,
    /^::error file=mistakes\/broken-procedure\/SKILL\.md,line=\d+.*title=skillgraph dependency_cycle::/m,
  );
  assert.match(stdout, /^::error file=mistakes\/skipped-skill\/SKILL\.md,line=3,.*title=skillgraph unquoted_colon::/m);
});

test('max-warnings and profile reach the check', () => {
  assert.equal(check({ paths: 'warned' }).status, 0);
  const limited = check({ paths: 'warned', 'max-warnings': '0' });
  assert.equal(limited.status, 1);
  assert.match(limited.stdout, /^::warning file=warned\/SKILL\.md,line=4,.*unknown_frontmatter_key::/m);
  // The Claude API upload rejects unknown keys: an error under that profile.
  const strict = check({ paths: 'warned', profile: 'claude-api' });
  assert.equal(strict.status, 1);
  assert.match(strict.stdout, /^::error file=warned\/SKILL\.md,line=4,.*unknown_frontmatter_key::/m);
});

test('a library finding is an annotation on both skills of the pair: two descriptions an agent cannot tell apart', () => {
  const described = (name: string, description: string) =>
    `---\nname: ${name}\ndescription: ${description}\n---\n\nDo it.\n`;
  for (const [name, description] of [
    ['deploy-app', 'Deploy the web application to staging or production with rollback, health checks and tagging.'],
    ['ship-app', 'Deploy the web application to production or staging, with health checks, tagging and rollback.'],
  ]) {
    mkdirSync(path.join(workspace, 'library', name), { recursive: true });
    writeFileSync(path.join(workspace, 'library', name, 'SKILL.md'), described(name, description));
  }
  const { status, stdout } = check({ paths: 'library', 'max-warnings': '0' });
  assert.equal(status, 1);
  for (const name of ['deploy-app', 'ship-app'])
    assert.match(stdout, new RegExp(`^::warning file=library/${name}/SKILL\\.md,line=3,.*similar_descriptions::`, 'm'));
});

test("the configuration's settings apply (its baseline too); the action's inputs win over them", () => {
  mkdirSync(path.join(workspace, 'team', 'notes'), { recursive: true });
  writeFileSync(path.join(workspace, 'team', '.skillgraph.yaml'), 'profile: claude-api\nbaseline: accepted.json\n');
  writeFileSync(
    path.join(workspace, 'team', 'notes', 'SKILL.md'),
    '---\nname: notes\ndescription: Writes notes. Use when asked.\nfoo: bar\n---\n\n# Notes\n',
  );
  writeFileSync(
    path.join(workspace, 'team', 'accepted.json'),
    JSON.stringify({
      version: 1,
      findings: [{ file: 'notes/SKILL.md', code: 'unknown_frontmatter_key', text: 'foo', count: 1 }],
    }),
  );
  writeFileSync(path.join(workspace, 'none.json'), JSON.stringify({ version: 1, findings: [] }));
  // The configuration's profile makes the unknown key an error, and its baseline accepts it.
  const accepted = check({ paths: 'team', 'max-warnings': '0' });
  assert.equal(accepted.status, 0, accepted.stdout);
  assert.doesNotMatch(accepted.stdout, /unknown_frontmatter_key/);
  const shown = check({ paths: 'team', baseline: 'none.json' });
  assert.equal(shown.status, 1);
  assert.match(shown.stdout, /^::error file=team\/notes\/SKILL\.md,line=4,.*unknown_frontmatter_key::/m);
  const lenient = check({ paths: 'team', baseline: 'none.json', profile: 'claude-code' });
  assert.equal(lenient.status, 0, 'the profile input wins over the configuration');
  const strict = check({ paths: 'team', baseline: 'none.json', profile: 'claude-code', strict: 'true' });
  assert.equal(strict.status, 1, "strict: the reference validator's verdict");
});

test('sarif: the report is written for the upload step, and the annotations still decide the exit status', () => {
  const { status } = check({ paths: 'mistakes/broken-procedure', sarif: 'skillgraph.sarif' });
  assert.equal(status, 1);
  const sarif = JSON.parse(readFileSync(path.join(workspace, 'skillgraph.sarif'), 'utf8'));
  assert.equal(sarif.version, '2.1.0');
  assert.ok(sarif.runs[0].results.some((result: { ruleId: string }) => result.ruleId === 'dependency_cycle'));
  // A usage mistake is not a finding: the SARIF run's exit 2 ends the step with it.
  const mistaken = check({ paths: 'no-such-folder', sarif: 'skillgraph.sarif' });
  assert.equal(mistaken.status, 2);
  assert.match(mistaken.stderr, /no-such-folder: no such file or folder/);
});

/** Runs the summary step as a runner would, without blocking: the test answers the step's call to GitHub's API. */
function summarise(
  cwd: string,
  inputs: Record<string, string>,
  github: Record<string, string>,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const step = action.runs.steps.find((item) => item.name === 'Summarise the change')!;
  const stepEnv = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(value, inputs, github)]),
  );
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run!, inputs, github)], {
    cwd,
    env: { ...process.env, ...stepEnv, ...env, GITHUB_ACTION_PATH: actionPath, GITHUB_WORKSPACE: cwd },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

test('diff: the job summary says what the pull request does to each skill; with a token it is posted on the pull request', async () => {
  const step = action.runs.steps.find((item) => item.name === 'Summarise the change')!;
  assert.equal(step.if, "${{ always() && inputs.diff == 'true' }}", 'after a failed check too, and only when asked');
  // A repository whose pull request renames a step without renaming what depends on it: an error introduced.
  const repo = mkdtempSync(path.join(tmpdir(), 'sg-action-pr-'));
  for (const name of ['csv-report', 'release-notes'])
    cpSync(path.join(REPO, 'examples', name), path.join(repo, name), { recursive: true });
  const git = (...args: string[]) => gitIn(repo, ...args);
  commitAll(repo, 'base');
  const base = git('rev-parse', 'HEAD');
  const skill = path.join(repo, 'csv-report', 'SKILL.md');
  writeFileSync(skill, readFileSync(skill, 'utf8').replace('  - name: choose-focus', '  - name: pick-focus'));
  git('commit', '-qam', 'the pull request');
  // GitHub's API is the one part not reachable here: a local server stands in for its issue comments, keeping them
  // and every request it is sent; `refuse` answers a write as a fork's read-only token gets answered.
  const requests: { method: string; url: string; authorization: string }[] = [];
  const comments: { id: number; body: string }[] = [];
  let refuse = false;
  const api = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const { method = '', url = '' } = request;
      requests.push({ method, url, authorization: request.headers.authorization ?? '' });
      const answer = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (method !== 'GET' && refuse) return answer(403, { message: 'Resource not accessible by integration' });
      const page = /^\/repos\/team\/skills\/issues\/7\/comments\?per_page=100&page=(\d+)$/.exec(url);
      if (method === 'GET' && page)
        return answer(200, comments.slice((Number(page[1]) - 1) * 100, Number(page[1]) * 100));
      if (method === 'POST' && url === '/repos/team/skills/issues/7/comments') {
        comments.push({ id: comments.length + 1, body: JSON.parse(text).body });
        return answer(201, comments.at(-1));
      }
      const edited = /^\/repos\/team\/skills\/issues\/comments\/(\d+)$/.exec(url);
      const comment = comments.find((item) => item.id === Number(edited?.[1]));
      if (method === 'PATCH' && comment) {
        comment.body = JSON.parse(text).body;
        return answer(200, comment);
      }
      answer(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  try {
    const summaryFile = path.join(repo, '..', `${path.basename(repo)}-summary.md`);
    const github = {
      'github.event.pull_request.base.sha': base,
      'github.event.pull_request.number': '7',
    };
    const env = {
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_API_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
      GITHUB_REPOSITORY: 'team/skills',
      RUNNER_TEMP: mkdtempSync(path.join(tmpdir(), 'sg-runner-')),
    };
    const written = () => readFileSync(path.join(env.RUNNER_TEMP, 'skillgraph-diff.md'), 'utf8');
    const quiet = await summarise(repo, { diff: 'true', paths: '.' }, github, env);
    assert.equal(quiet.status, 0, quiet.stderr);
    const summary = readFileSync(summaryFile, 'utf8');
    assert.match(summary, /^### Skillgraph: 1 skill changed — errors introduced$/m);
    assert.match(summary, /^\| node \| renamed \| renamed step choose-focus → pick-focus \|$/m);
    assert.match(summary, /unknown_dependency/);
    assert.equal(requests.length, 0, 'no token: the job summary only');
    const withToken = { diff: 'true', paths: '.', 'github-token': 'secret-token' };
    const first = await summarise(repo, withToken, github, env);
    assert.equal(first.status, 0, first.stderr);
    assert.ok(requests.every((item) => item.authorization === 'Bearer secret-token'));
    assert.deepEqual(comments, [{ id: 1, body: `<!-- skillgraph-diff -->\n${written()}` }]);
    // Reviewers' comments come first (more than a page of them) and stay theirs.
    comments.unshift(...Array.from({ length: 150 }, (_, index) => ({ id: 1000 + index, body: 'Looks good to me.' })));
    // Run again on the same change: the comment says it already, so it is left alone (not even marked edited).
    requests.length = 0;
    assert.equal((await summarise(repo, withToken, github, env)).status, 0);
    assert.deepEqual(
      requests.map((item) => item.method),
      ['GET', 'GET'],
    );
    // A later push changes what the pull request does: the same comment is updated, no second one is posted.
    writeFileSync(skill, readFileSync(skill, 'utf8').replace('  - name: load-table', '  - name: read-table'));
    git('commit', '-qam', 'a second push');
    assert.equal((await summarise(repo, withToken, github, env)).status, 0);
    assert.equal(comments.length, 151);
    assert.equal(comments[150].id, 1);
    assert.match(comments[150].body, /renamed step load-table → read-table/);
    assert.equal(comments[150].body, `<!-- skillgraph-diff -->\n${written()}`);
    assert.ok(comments.slice(0, 150).every((comment) => comment.body === 'Looks good to me.'));
    // A token that may not comment (a fork's): a warning, and the job goes on with the summary.
    refuse = true;
    writeFileSync(skill, readFileSync(skill, 'utf8').replace('  - name: read-table', '  - name: load-rows'));
    git('commit', '-qam', 'a third push');
    const forked = await summarise(repo, withToken, github, env);
    assert.equal(forked.status, 0, forked.stderr);
    assert.match(
      forked.stdout,
      /^::warning title=skillgraph::The diff summary was not posted on the pull request \(PATCH \/repos\/team\/skills\/issues\/comments\/1 answered 403\); it is in the job summary\.$/m,
    );
    assert.doesNotMatch(forked.stdout + forked.stderr, /secret-token/);
    // A pull request that touches no skill gets no comment at all.
    refuse = false;
    comments.length = 0;
    git('reset', '-q', '--hard', base);
    assert.equal((await summarise(repo, withToken, github, env)).status, 0);
    assert.match(written(), /^### Skillgraph: no skill changed$/m);
    assert.deepEqual(comments, []);
    // Not a pull request (a push): nothing to compare, nothing written.
    const push = await summarise(repo, { diff: 'true' }, {}, env);
    assert.equal(push.status, 0);
    assert.match(push.stdout, /not a pull request/);
  } finally {
    api.close();
  }
});

test("diff: a shallow checkout (actions/checkout's default) has the pull request's base fetched; a base origin lacks is an error", async () => {
  // The origin holds the base and the pull request; the checkout, one commit deep, only the pull request.
  const origin = mkdtempSync(path.join(tmpdir(), 'sg-action-origin-'));
  cpSync(path.join(REPO, 'examples', 'csv-report'), path.join(origin, 'csv-report'), { recursive: true });
  commitAll(origin, 'base');
  const base = gitIn(origin, 'rev-parse', 'HEAD');
  const skill = path.join(origin, 'csv-report', 'SKILL.md');
  writeFileSync(skill, readFileSync(skill, 'utf8').replace('  - name: choose-focus', '  - name: pick-focus'));
  gitIn(origin, 'commit', '-qam', 'the pull request');
  const runner = mkdtempSync(path.join(tmpdir(), 'sg-runner-'));
  gitIn(runner, 'clone', '-q', '--depth=1', `file://${origin}`, 'checkout');
  const checkout = path.join(runner, 'checkout');
  assert.throws(() => gitIn(checkout, 'cat-file', '-e', `${base}^{commit}`), 'the checkout lacks the base');
  const env = { GITHUB_STEP_SUMMARY: path.join(runner, 'summary.md'), RUNNER_TEMP: runner };
  const pullRequest = (sha: string) => ({
    'github.event.pull_request.base.sha': sha,
    'github.event.pull_request.number': '7',
  });
  const fetched = await summarise(checkout, { diff: 'true', paths: '.' }, pullRequest(base), env);
  assert.equal(fetched.status, 0, fetched.stderr);
  assert.match(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8'), /renamed step choose-focus → pick-focus/);
  assert.equal(gitIn(checkout, 'rev-list', '--count', 'HEAD'), '1', 'the base alone was fetched, not the history');
  const unknown = 'deadbeef'.repeat(5);
  const missing = await summarise(checkout, { diff: 'true', paths: '.' }, pullRequest(unknown), env);
  assert.equal(missing.status, 2);
  assert.match(
    missing.stdout,
    new RegExp(
      `^::error title=skillgraph::The pull request's base \\(${unknown}\\) is not in the checkout and could not be fetched`,
      'm',
    ),
  );
});
