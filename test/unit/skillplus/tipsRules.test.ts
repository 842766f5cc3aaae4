import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzePackage, edit, expectIn, PACKAGE, PACKAGE_DIR } from '../../support/skillplus';
import { asSkillplus } from '../../support/formatParts';

test('invalid_on_fail: a misspelt value (did you mean) in .md and .py; a rule without on_fail at its anchor', () => {
  const md = analyzePackage(edit('rules/cite.md', 'on_fail: self-check', 'on_fail: «self-chek»'));
  assert.equal(expectIn(md.analysis, 'invalid_on_fail', md.spans['rules/cite.md'])[0].data?.suggestion, 'self-check');
  const py = analyzePackage(edit('rules/no-secrets.py', 'on_fail="deny"', 'on_fail="«dney»"'));
  assert.equal(expectIn(py.analysis, 'invalid_on_fail', py.spans['rules/no-secrets.py'])[0].data?.suggestion, 'deny');
  const missing = analyzePackage({
    'rules/cite.md': PACKAGE['rules/cite.md'].replace('---\non_fail: self-check\n', '«---»\n'),
  });
  assert.match(
    expectIn(missing.analysis, 'invalid_on_fail', missing.spans['rules/cite.md'])[0].message,
    /no `on_fail`/,
  );
});

test('invalid_rule_decorator: a computed argument, no id, a function that does not take (state, ctx)', () => {
  const { analysis, spans } = analyzePackage({
    'rules/no-secrets.py': `from skillplus import rule

MESSAGE = "x"

@rule(id="no-secrets", on_fail="deny", message=«MESSAGE»)
def no_secrets(state, ctx):
    return True


«@rule(on_fail="advise")»
def unnamed(state, ctx):
    return True


@rule(id="short", on_fail="advise")
def «short»(state):
    return True
`,
  });
  const found = expectIn(analysis, 'invalid_rule_decorator', spans['rules/no-secrets.py']);
  assert.match(found[0].message, /literal keyword arguments/);
  assert.match(found[1].message, /needs `id=/);
  assert.match(found[2].message, /takes \(state\)/);
});

test("duplicate_rule_id: a .py rule reusing an .md rule's id, at the second id", () => {
  const { analysis, spans } = analyzePackage(edit('rules/no-secrets.py', 'id="no-secrets"', 'id="«cite»"'));
  assert.match(
    expectIn(analysis, 'duplicate_rule_id', spans['rules/no-secrets.py'])[0].message,
    /already used in rules\/cite\.md/,
  );
});

test('unknown_rule: rule= names a rule that is not there; did you mean, with the ids listed', () => {
  const { analysis, spans } = analyzePackage(edit('flow.py', 'rule="cite"', 'rule="«cites»"'));
  const [found] = expectIn(analysis, 'unknown_rule', spans['flow.py']);
  assert.equal(found.data?.suggestion, 'cite');
  assert.match(found.message, /Rules: cite, no-secrets/);
});

test('missing_script: tool="scripts/…" that is not in the package; host tools are not files', () => {
  const { analysis, spans } = analyzePackage(edit('flow.py', 'tool="scripts/route.py"', 'tool="«scripts/rout.py»"'));
  expectIn(analysis, 'missing_script', spans['flow.py']);
  const host = analyzePackage(edit('flow.py', 'tool="scripts/route.py"', 'tool="web_search"'));
  assert.deepEqual(
    host.analysis.diagnostics.filter((item) => item.code === 'missing_script'),
    [],
  );
});

test('tip_key_without_when and tip_too_long', () => {
  const { analysis, spans } = analyzePackage({
    'references/guide.md': '---\n«priority»: 3\ntitle: Guide\n---\n# Guide\n',
    'references/budget-tips.md': PACKAGE['references/budget-tips.md'].replace('max_chars: 200', '«max_chars»: 10'),
  });
  assert.match(
    expectIn(analysis, 'tip_key_without_when', spans['references/guide.md'])[0].message,
    /`priority` only matters on a tip/,
  );
  assert.match(
    expectIn(analysis, 'tip_too_long', spans['references/budget-tips.md'])[0].message,
    /26 characters, more than its `max_chars` of 10.*budget \(900\)/,
  );
});

test('unused_rule_or_tip: a rule whose when never holds on the flow and that no node names', () => {
  const { analysis, spans } = analyzePackage(
    edit(
      'rules/cite.md',
      'when: event=post_node and stage in [research, decide]',
      'when: «event=post_node and stage=ask and node=write»',
    ),
  );
  const found = analysis.diagnostics.filter((item) => item.code === 'unused_rule_or_tip');
  // cite is named by rule= on two nodes, so it is used even where its when holds nowhere.
  assert.deepEqual(found, []);
  const unnamed = analyzePackage({
    ...edit(
      'rules/cite.md',
      'when: event=post_node and stage in [research, decide]',
      'when: «event=post_node and stage=ask and node=write»',
    ),
    'flow.py': PACKAGE['flow.py']
      .replace(', rule="cite"', '')
      .replace('rule=["cite", "no-secrets"]', 'rule="no-secrets"'),
  });
  expectIn(unnamed.analysis, 'unused_rule_or_tip', unnamed.spans['rules/cite.md']);
  assert.equal(spans['rules/cite.md'].length, 1);
});

test('spec.md: an id that does not exist (did you mean) and a stage or rule it does not list', () => {
  const { analysis, spans } = analyzePackage({
    'spec.md':
      '# trip\n\n## Stages\n- `ask` — where.\n- `«reserch»` — stops.\n\n## Rules\n- `cite` — sources.\n- `no-secrets` — none.\n',
    'flow.py': PACKAGE['flow.py']
      .replace('with flow.stage("decide")', 'with flow.stage("«decide»")')
      .replace('with flow.stage("research")', 'with flow.stage("«research»")'),
  });
  assert.equal(expectIn(analysis, 'spec_unknown_id', spans['spec.md'])[0].data?.suggestion, 'research');
  expectIn(analysis, 'spec_unlisted_id', spans['flow.py']);
});

test('invalid_skillplus_metadata: a version that is not "0.1", a budget that is not a whole number, a flow path outside the folder', () => {
  const { analysis, spans } = analyzePackage({
    'SKILL.md': PACKAGE['SKILL.md']
      .replace('skillplus-version: "0.1"', 'skillplus-version: «0.2»')
      .replace('skillplus-tip-budget: "900"', 'skillplus-tip-budget: «lots»\n  skillplus-flow: «../other/flow.py»'),
  });
  const found = expectIn(analysis, 'invalid_skillplus_metadata', spans['SKILL.md']);
  assert.match(found[0].message, /"0\.1"/);
  assert.match(found[1].message, /whole number/);
  assert.match(found[2].message, /inside the skill folder/);
});

test('invalid_frontmatter in a tip and a rule: reported in that file; the rest of the package is still checked', () => {
  const { analysis } = analyzePackage({
    'references/budget-tips.md': '---\nwhen: [stage=research\n---\nBody.\n',
    'rules/cite.md': '---\non_fail: advise\nwhen: stage=ask: no\n---\nBody.\n',
  });
  const files = analysis.diagnostics
    .filter((item) => item.code === 'invalid_frontmatter')
    .map((item) => path.relative(PACKAGE_DIR, item.file));
  assert.deepEqual(files.sort(), ['references/budget-tips.md', 'rules/cite.md']);
  // The flow is still read and checked: a broken tip does not hide the flow's own problems.
  const withFlowError = analyzePackage({
    'references/budget-tips.md': '---\nwhen: [stage=research\n---\n',
    ...edit('flow.py', 'into="destination"', 'into="destinaton"'),
  });
  assert.ok(withFlowError.analysis.diagnostics.some((item) => item.code === 'unknown_state_path'));
});

test('bad files in rules/ and references/: binary and unreadable files are findings on that file, never read', () => {
  const { analysis } = analyzePackage({
    'rules/blob.py': 'print(1)\u0000\u0001\u0002\u0000binary',
    'references/image.md': '\u0000PNG\u0000\u0000',
  });
  const binary = analysis.diagnostics
    .filter((item) => item.code === 'binary_file')
    .map((item) => path.relative(PACKAGE_DIR, item.file));
  assert.deepEqual(binary.sort(), ['references/image.md', 'rules/blob.py']);
  // Nothing else: the rest of the package reads as before.
  assert.deepEqual(
    analysis.diagnostics.filter((item) => item.code !== 'binary_file'),
    [],
  );
});

test('a thousand tips are all read, typed and attached; one misspelt among them is found', () => {
  const tips: Record<string, string> = {};
  for (let index = 0; index < 1000; index++)
    tips[`references/tip-${String(index).padStart(4, '0')}.md`] =
      `---\nwhen: stage=research and budget=${['low', 'mid', 'high'][index % 3]}\n---\nTip ${index}.\n`;
  tips['references/tip-0500.md'] = '---\nwhen: stage=research and «budgte»=low\n---\nTip.\n';
  const { analysis, spans } = analyzePackage(tips);
  expectIn(analysis, 'unknown_predicate_path', spans['references/tip-0500.md']);
  assert.equal(asSkillplus(analysis).skillplus.tips.length, 1001);
});
