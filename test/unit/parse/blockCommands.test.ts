import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockCommands, blockScript } from '../../../server/src/parse/markdown/blockCommands';
import { parseSkillFile } from '../../../server/src/parse/markdown/skillFile';

/** The commands of the one fenced block of `body`, each as it reads at its offset in the file. */
function commandsOf(body: string): string[] {
  const text = `---\nname: x\n---\n${body}`;
  const { fences } = parseSkillFile(text);
  assert.equal(fences.length, 1);
  return blockCommands(text, fences[0]).map((command) => {
    assert.equal(text.slice(command.start, command.start + command.text.length), command.text);
    return command.text;
  });
}

test('a block without prompts is one piece, all of it commands', () => {
  assert.deepEqual(commandsOf('```bash\ngit status\necho "$HOME"\n```\n'), ['git status\necho "$HOME"\n']);
  // `# ` is a comment and `> ` what npm prints before a script: neither is a prompt.
  assert.deepEqual(commandsOf('```console\n# build it\nnpm run build\n> app@1.0.0 build\n```\n'), [
    '# build it\nnpm run build\n> app@1.0.0 build\n',
  ]);
});

test('in a session, the prompted commands without their prompts, not what they printed', () => {
  const session = [
    '```bash',
    '$ npm test',
    'FAIL: expected "Email required", got undefined',
    '(venv) dev@box:~/app$ git status \\',
    '    --short',
    ' M src/app.ts',
    '~/app % ls',
    '❯ make',
    '➜ make install',
    '```',
    '',
  ].join('\n');
  assert.deepEqual(commandsOf(session), ['npm test', 'git status \\\n    --short', 'ls', 'make', 'make install']);
  // PowerShell's prompt, with or without the folder.
  assert.deepEqual(commandsOf('```powershell\nPS C:\\src> iwr https://x.dev/a.ps1\nStatusCode : 200\nPS> ls\n```\n'), [
    'iwr https://x.dev/a.ps1',
    'ls',
  ]);
});

test('a here-document is the command’s input up to its delimiter; a here-string and a shift are not', () => {
  const session =
    '```console\n$ cat <<EOF > notes.md\n$ not a prompt\nEOF\nwritten\n$ cat <<-\'END\'\n\tx\n\tEND\n$ tr a b <<<"$ text"\nb\n$ echo $((1 << 2))\n4\n```\n';
  assert.deepEqual(commandsOf(session), [
    'cat <<EOF > notes.md\n$ not a prompt\nEOF',
    "cat <<-'END'\n\tx\n\tEND",
    'tr a b <<<"$ text"',
    'echo $((1 << 2))',
  ]);
});

test('a block of a language with no prompt is read whole, a line starting with `%` included', () => {
  assert.deepEqual(commandsOf('```python\nmessage = ("hello %s"\n           % name)\n```\n'), [
    'message = ("hello %s"\n           % name)\n',
  ]);
});

test('an unlabelled block introduced as what a program printed is output, not commands', () => {
  const output = '```\nmissing: uv -> run: curl -LsSf https://astral.sh/uv/install.sh | sh\n```\n';
  assert.deepEqual(commandsOf(`## Example output\n\n${output}`), []);
  assert.deepEqual(commandsOf(`The script prints one line per tool:\n${output}`), []);
  assert.deepEqual(commandsOf(`You should see something like this:\n\n${output}`), []);
  // Labelled as a shell's, or introduced as anything else, a block is commands.
  assert.deepEqual(commandsOf('## Example output\n\n```bash\nnpm test\n```\n'), ['npm test\n']);
  assert.deepEqual(commandsOf('## Output\n\nWrite the report:\n\n```\nnode report.js > out.json\n```\n'), [
    'node report.js > out.json\n',
  ]);
});

test('blockScript: the commands a line apart, as a script runs them', () => {
  const text = '---\nname: x\n---\n```sh\n$ npm ci\nadded 12 packages\n$ npm test\nPASS\n```\n';
  assert.equal(blockScript(text, parseSkillFile(text).fences[0]), 'npm ci\nnpm test');
});
