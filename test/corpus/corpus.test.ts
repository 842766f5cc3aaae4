import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../server/src/analyze';
import { LineIndex } from '../../server/src/parse/text/lineIndex';
import { SkillLines } from '../../server/src/parse/text/skillLines';
import { discoverSkills } from '../../server/src/workspace/discover';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { CORPUS } from '../support/corpus';
import { expectationRows } from '../support/expectationTable';
import { isSecurityCode } from '../../server/src/rules';

const FAMILIES = ['plain', 'aip-v03', 'aip-v05'];

function expectedRows(): string[] {
  const table = readFileSync(join(__dirname, 'expected-errors.md'), 'utf8');
  return table
    .split('\n')
    .filter((line) => /^\| (plain|aip-v0[35])\//.test(line))
    .map((line) => {
      const [skill, code, lineNumber, why] = line
        .split('|')
        .slice(1, 5)
        .map((cell) => cell.trim());
      assert.ok(why.length > 20, `row for ${skill} needs a justification`);
      return `${skill} ${code} ${lineNumber}`;
    })
    .sort();
}

test('the corpus is there', () => {
  assert.ok(existsSync(CORPUS), `expected the shared corpus at ${CORPUS}`);
});

test('plain and AIP families: errors are exactly the justified rows of expected-errors.md', () => {
  const fs = new NodeFileSystem();
  const found = discoverSkills(
    fs,
    FAMILIES.map((family) => join(CORPUS, family)),
    CORPUS,
  );
  assert.equal(found.skills.length, 36);
  const formats = new Map<string, number>();
  const errors: string[] = [];
  for (const skill of found.skills) {
    const analysis = analyzeSkill(fs, skill.file);
    formats.set(analysis.format, (formats.get(analysis.format) ?? 0) + 1);
    const lines = new LineIndex(analysis.text);
    for (const item of analysis.diagnostics) {
      if (item.severity !== 'error') continue;
      errors.push(
        `${relative(CORPUS, dirname(skill.file))} ${item.code} ${lines.positionAt(item.span.start).line + 1}`,
      );
    }
  }
  assert.deepEqual(Object.fromEntries(formats), { 'agent-skill': 21, 'aip-0.3': 11, 'aip-0.5': 4 });
  assert.deepEqual(errors.sort(), expectedRows());
});

test('AIP skills load into graphs: every AIP skill has steps and at least one edge', () => {
  const fs = new NodeFileSystem();
  const found = discoverSkills(
    fs,
    ['aip-v03', 'aip-v05'].map((family) => join(CORPUS, family)),
    CORPUS,
  );
  for (const skill of found.skills) {
    const analysis = analyzeSkill(fs, skill.file);
    assert.ok(analysis.model.nodes.length >= 2, `${skill.file}: ${analysis.model.nodes.length} steps`);
    assert.ok(analysis.model.edges.length >= 1, `${skill.file}: no edges`);
  }
});

test('MetaSkill family: OpenSquilla accepts these skills, and no profile finds an error in them', () => {
  const fs = new NodeFileSystem();
  const found = discoverSkills(fs, [join(CORPUS, 'metaskill')], CORPUS);
  assert.equal(found.skills.length, 38);
  for (const profile of ['agentskills', 'opensquilla'] as const) {
    const formats = new Map<string, number>();
    const errors: string[] = [];
    for (const skill of found.skills) {
      const analysis = analyzeSkill(fs, skill.file, { profile });
      formats.set(analysis.format, (formats.get(analysis.format) ?? 0) + 1);
      for (const item of analysis.diagnostics)
        if (item.severity === 'error') errors.push(`${relative(CORPUS, skill.file)} ${item.code}: ${item.message}`);
      if (analysis.format === 'metaskill') {
        assert.ok(analysis.model.nodes.length >= 10, `${skill.file}: ${analysis.model.nodes.length} steps`);
        assert.ok(
          analysis.model.edges.some((edge) => edge.kind === 'data'),
          `${skill.file}: no binding edges`,
        );
        // Every composed skill resolves in the catalog beside it.
        assert.deepEqual(
          analysis.model.nodes
            .flatMap((node) => node.skillRefs ?? [])
            .filter(
              (ref) =>
                !ref.file &&
                ref.via === 'skill' &&
                ['agent', 'skill_exec'].includes(
                  analysis.model.nodes.find((node) => node.skillRefs?.includes(ref))!.kind,
                ),
            ),
          [],
        );
      }
    }
    assert.deepEqual(Object.fromEntries(formats), { 'agent-skill': 33, metaskill: 5 });
    assert.deepEqual(errors, [], profile);
  }
});

test('skill+ examples: each is recognised as skill+, every file read, and checks clean (no error, warning or information)', () => {
  const fs = new NodeFileSystem();
  const found = discoverSkills(fs, [join(CORPUS, 'skillplus')], CORPUS);
  assert.deepEqual(
    found.skills.map((skill) => relative(join(CORPUS, 'skillplus', 'examples'), dirname(skill.file))).sort(),
    ['competitor-brief', 'customer-refund', 'dependency-upgrade', 'incident-postmortem'],
  );
  for (const skill of found.skills) {
    const analysis = analyzeSkill(fs, skill.file);
    const name = relative(CORPUS, skill.file);
    assert.equal(analysis.format, 'skillplus', name);
    // The security findings of the corpus are the rows of expected-security.md (tested below).
    assert.deepEqual(
      analysis.diagnostics
        .filter((item) => !isSecurityCode(item.code))
        .map((item) => `${relative(CORPUS, item.file)} ${item.code}: ${item.message}`),
      [],
      name,
    );
    const pkg = analysis.skillplus!;
    assert.ok(pkg.flow && pkg.state?.root, `${name}: flow and State read`);
    assert.ok(
      pkg.tips.length >= 2 && pkg.rules.length >= 2,
      `${name}: ${pkg.tips.length} tips, ${pkg.rules.length} rules`,
    );
    // Every tip and rule is attached somewhere, and the flow reaches the model as nodes of every stage.
    assert.ok(analysis.model.nodes.length >= 6, `${name}: ${analysis.model.nodes.length} nodes`);
    assert.deepEqual(
      pkg.flow.stages
        .filter((stage) => !analysis.model.nodes.some((node) => node.group === stage.id))
        .map((stage) => stage.id),
      [],
      `${name}: stages with nodes`,
    );
  }
});

/** `file code line` of every row of an expectation table (expected-warnings.md by default), each with a reason. */
function expectedWarnings(name = 'expected-warnings.md'): string[] {
  return expectationRows(join(__dirname, name));
}

/** Every skill of the corpus and the examples, analysed as its authors target it, with where its findings are. */
function corpusFindings(keep: (item: { severity: string; code: string }) => boolean): string[] {
  const fs = new NodeFileSystem();
  const examples = join(__dirname, '..', '..', 'examples');
  const shown = (file: string) =>
    file.startsWith(CORPUS) ? relative(CORPUS, file) : `examples/${relative(examples, file)}`;
  const warnings: string[] = [];
  const families: { dir: string; profile?: 'opensquilla' }[] = [
    ...['plain', 'aip-v03', 'aip-v05', 'skillplus'].map((family) => ({ dir: join(CORPUS, family) })),
    // The family's authors target OpenSquilla: its composed skills are read as OpenSquilla reads them.
    { dir: join(CORPUS, 'metaskill'), profile: 'opensquilla' as const },
    { dir: examples },
  ];
  for (const { dir, profile } of families) {
    for (const skill of discoverSkills(fs, [dir], CORPUS).skills) {
      const analysis = analyzeSkill(fs, skill.file, profile ? { profile } : {});
      const lines = new SkillLines(analysis);
      for (const item of analysis.diagnostics)
        if (keep(item))
          warnings.push(`${shown(item.file)} ${item.code} ${lines.of(item.file).positionAt(item.span.start).line + 1}`);
    }
  }
  return warnings.sort();
}

test('warning precision: every warning on the corpus and the examples is a justified row of expected-warnings.md, and every row is found', () => {
  assert.deepEqual(
    corpusFindings((item) => item.severity === 'warning' && !isSecurityCode(item.code)),
    expectedWarnings(),
  );
});

test('security precision: every security finding on the corpus and the examples is a row of expected-security.md, and every row is found', () => {
  assert.deepEqual(
    corpusFindings((item) => isSecurityCode(item.code)),
    expectedWarnings('expected-security.md'),
  );
});
