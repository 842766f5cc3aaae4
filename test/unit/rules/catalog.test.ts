import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { declaredRules } from '../../../scripts/ruleCatalog';
import { diagnostic } from '../../../server/src/checks/engine/diagnostic';
import { defineRule } from '../../../server/src/checks/engine/rule';
import { SECURITY_FAMILY } from '../../../server/src/checks/security';
import { applySeverities } from '../../../server/src/checks/engine/severities';
import { RULES, SECURITY_RULES, severityMapsOf } from '../../../server/src/rules';

const ROOT = path.join(__dirname, '..', '..', '..');
const SOURCE = path.join(ROOT, 'server', 'src');
const camel = (code: string) => code.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

test('every code is declared once, by an export named for it, and the catalog holds exactly those', () => {
  const declared = declaredRules();
  const codes = declared.map((rule) => rule.code);
  assert.deepEqual(
    codes.filter((code, i) => codes.indexOf(code) !== i),
    [],
    'declared twice',
  );
  assert.deepEqual(
    declared.filter((rule) => rule.name !== camel(rule.code)).map((rule) => `${rule.name}: ${rule.code}`),
    [],
  );
  assert.deepEqual(RULES.map((rule) => rule.code).sort(), [...codes].sort());
});

test('the catalog, the docs index and the codes of the configuration schema are what the declarations make', () => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts', 'ruleCatalog.ts'), '--check'],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

test('a code is written only where its rule is declared: everything else refers to the rule', () => {
  const home = new Map(declaredRules().map((rule) => [rule.code, rule.file]));
  const found: string[] = [];
  for (const file of sourceFiles(SOURCE)) {
    if (file.endsWith('catalog.generated.ts')) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        home.has(node.text) &&
        home.get(node.text) !== file &&
        !ts.isImportDeclaration(node.parent)
      )
        found.push(`${path.relative(ROOT, file)}: '${node.text}'`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(found, []);
});

test('a rule with a fix says how far it may be trusted', () => {
  assert.deepEqual(
    RULES.filter((rule) => rule.fix && !rule.fixable).map((rule) => rule.code),
    [],
  );
});

test("the security family is the catalog's security rules", () => {
  assert.deepEqual(
    SECURITY_FAMILY.map((rule) => rule.code),
    SECURITY_RULES.map((rule) => rule.code),
  );
});

test('a preview rule reports only when previews are on, or when the user names it', () => {
  const stable = defineRule({
    code: 'a_stable_rule',
    category: 'file',
    severity: 'warning',
    summary: 'A rule.',
    stability: 'stable',
    formats: 'all',
  });
  const preview = defineRule({
    code: 'a_preview_rule',
    category: 'file',
    severity: 'warning',
    summary: 'A new rule.',
    stability: 'preview',
    formats: 'all',
    profiles: { codex: 'error' },
  });
  const maps = severityMapsOf([stable, preview]);
  const findings = [stable, preview].map((rule) => diagnostic(rule, '/s/SKILL.md', { start: 0, end: 1 }, rule.summary));
  const reported = (...args: Parameters<typeof maps>) =>
    applySeverities(findings, ...maps(...args)).map((item) => `${item.code} ${item.severity}`);
  assert.deepEqual(reported('agentskills', {}), ['a_stable_rule warning']);
  assert.deepEqual(reported('agentskills', { preview: true }), ['a_stable_rule warning', 'a_preview_rule warning']);
  assert.deepEqual(reported('codex', { preview: true }), ['a_stable_rule warning', 'a_preview_rule error']);
  assert.deepEqual(reported('agentskills', { user: { a_preview_rule: 'hint' } }), [
    'a_stable_rule warning',
    'a_preview_rule hint',
  ]);
  assert.deepEqual(reported('agentskills', { preview: true, user: { a_preview_rule: 'off' } }), [
    'a_stable_rule warning',
  ]);
});
