import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import irSchema from '../../schemas/skill-ir.schema.json';
import { analyzeSkill, type SkillAnalysis } from '../../server/src/analyze';
import { compileSkill } from '../../server/src/compile/compileSkill';
import { hasErrors, type CompileResult } from '../../server/src/forms/compiled';
import { defaultOutDir } from '../../server/src/compile/targets';
import { discoverSkills } from '../../server/src/workspace/discover';
import { MemoryFileSystem } from '../../server/src/workspace/memoryFileSystem';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { CORPUS } from '../support/corpus';

const fs = new NodeFileSystem();
const skills = discoverSkills(fs, [CORPUS], CORPUS).skills.map((skill) => analyzeSkill(fs, skill.file));
const shown = (analysis: SkillAnalysis) => relative(CORPUS, analysis.dir);
const errorsOf = (result: Pick<CompileResult, 'diagnostics'>) =>
  result.diagnostics
    .filter((item) => item.severity === 'error')
    .map((item) => `${relative(CORPUS, item.file)}: ${item.code} ${item.message}`);

/** A compiled package read back from where it would be written: what a user gets after `--out`. */
function reread(result: CompileResult): SkillAnalysis {
  const memory = new MemoryFileSystem(
    Object.fromEntries(result.files.map((file) => [join(result.outDir, file.path), file.content])),
  );
  return analyzeSkill(memory, join(result.outDir, 'SKILL.md'));
}

test('ir: every corpus skill compiles, errors and all, and the IR validates against schemas/skill-ir.schema.json', () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(irSchema);
  assert.equal(skills.length, 78);
  for (const analysis of skills) {
    const result = compileSkill(fs, analysis, 'ir', analysis.dir);
    const ir = JSON.parse(result.files[0].content as string) as {
      diagnostics: unknown[];
      version?: string;
      nodes: unknown[];
    };
    assert.ok(validate(ir), `${shown(analysis)}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    assert.equal(ir.diagnostics.length, analysis.diagnostics.length, shown(analysis));
    if (analysis.format === 'skillplus') assert.equal(ir.version, '0.1');
    else assert.equal(ir.nodes.length, analysis.model.nodes.length, shown(analysis));
  }
});

test('plain: every AIP, MetaSkill and skill+ corpus skill without errors compiles to a plain skill that checks with no error; one with errors is refused with them', () => {
  const counts = { clean: 0, refused: 0 };
  for (const analysis of skills.filter((item) => item.format !== 'agent-skill')) {
    const result = compileSkill(fs, analysis, 'agent-skill', defaultOutDir(analysis.dir, analysis.name, 'agent-skill'));
    if (hasErrors(analysis)) {
      assert.equal(result.files.length, 0, shown(analysis));
      assert.deepEqual(
        result.diagnostics,
        analysis.diagnostics.filter((item) => item.severity === 'error'),
      );
      counts.refused++;
      continue;
    }
    assert.deepEqual(errorsOf(result), [], shown(analysis));
    const back = reread(result);
    assert.equal(back.format, 'agent-skill', shown(analysis));
    assert.deepEqual(errorsOf(back), [], shown(analysis));
    counts.clean++;
  }
  // 15 AIP, 5 MetaSkills, 4 skill+; the refused are the 3 AIP skills of test/corpus/expected-errors.md.
  assert.deepEqual(counts, { clean: 21, refused: 3 });
});

/**
 * Every plain corpus skill compiled to AIP in `version`: a skill with errors is refused with no file; any other gives
 * a package with no error, as compiled and read back from where it would be written, with its original in `source/`.
 * `more` checks each package further. Returns how many were clean and refused.
 */
function compileCorpusToAip(
  version: '0.3' | '0.5',
  more: (analysis: SkillAnalysis, result: CompileResult, back: SkillAnalysis) => void,
) {
  const counts = { clean: 0, refused: 0 };
  for (const analysis of skills.filter((item) => item.format === 'agent-skill')) {
    const result = compileSkill(fs, analysis, 'aip', defaultOutDir(analysis.dir, analysis.name, 'aip'), [], version);
    if (hasErrors(analysis)) {
      assert.equal(result.files.length, 0);
      counts.refused++;
      continue;
    }
    assert.deepEqual(errorsOf(result), [], shown(analysis));
    const back = reread(result);
    assert.equal(back.format, `aip-${version}`, shown(analysis));
    assert.deepEqual(errorsOf(back), [], shown(analysis));
    assert.ok(back.model.nodes.length >= 1, shown(analysis));
    assert.equal(result.files.find((file) => file.path === 'source/original-SKILL.md')!.content, analysis.text);
    more(analysis, result, back);
    counts.clean++;
  }
  return counts;
}

// 21 plain skills and the 33 ordinary skills MetaSkills compose; the refused are the 4 vercel-labs skills whose name is
// not their folder's (expected-errors.md).
const CORPUS_COUNTS = { clean: 50, refused: 4 };

test('aip: every plain corpus skill without errors compiles to an AIP 0.3 package (--aip-version 0.3) with no error, its original and schema kept in source/', () => {
  const counts = compileCorpusToAip('0.3', (analysis, result) =>
    assert.ok(
      result.files.some((file) => file.path === 'source/procedure.schema.json'),
      shown(analysis),
    ),
  );
  assert.deepEqual(counts, CORPUS_COUNTS);
});

test('aip: every plain corpus skill without errors compiles to an AIP 0.5a1 package that checks clean under the 0.5a1 rules, with no script made from its prose', () => {
  const made = { approvals: 0, commandFiles: 0 };
  const counts = compileCorpusToAip('0.5', (analysis, result, back) => {
    const paths = result.files.map((file) => file.path);
    // Only the source's own scripts are in scripts/: a compile never writes one from prose.
    assert.deepEqual(
      paths.filter((file) => file.startsWith('scripts/') && !existsSync(join(analysis.dir, file))),
      [],
      shown(analysis),
    );
    assert.ok(!paths.includes('source/procedure.schema.json'), 'AIP 0.5 keeps no schema copy');
    // Templates and cited references missing from the package would be missing_resource errors above.
    made.approvals += back.model.nodes.filter((node) => node.kind === 'decision').length;
    made.commandFiles += paths.filter((file) => /^references\/.*-commands\.md$/.test(file)).length;
  });
  assert.deepEqual(counts, CORPUS_COUNTS);
  assert.ok(made.commandFiles > 0 && made.approvals > 0, JSON.stringify(made));
});

test('aip: every AIP 0.3 corpus skill migrates to AIP 0.5a1 with no new error, every step kept, as compiled and read back', () => {
  const olds = skills.filter((item) => item.format === 'aip-0.3');
  assert.equal(olds.length, 11);
  for (const analysis of olds) {
    const result = compileSkill(fs, analysis, 'aip', defaultOutDir(analysis.dir, analysis.name, 'aip'));
    assert.deepEqual(errorsOf(result), [], shown(analysis));
    const back = reread(result);
    assert.equal(back.format, 'aip-0.5', shown(analysis));
    assert.deepEqual(errorsOf(back), [], shown(analysis));
    // Every 0.3 step is a step of the package, under its kebab-case name.
    const names = new Set(back.model.nodes.map((node) => node.id));
    for (const node of analysis.model.nodes.filter((item) => item.kind === 'step'))
      assert.ok(names.has(node.id.toLowerCase().replace(/[^a-z0-9]+/g, '-')), `${shown(analysis)}: ${node.id}`);
    assert.equal(result.files.find((file) => file.path === 'source/aip-0.3-SKILL.md')!.content, analysis.text);
  }
});

test('metaskill-sop: each corpus MetaSkill either round trips to the same plan, or is refused at every key the SOP form cannot say', () => {
  const metas = skills.filter(
    (item) =>
      item.format === 'metaskill' && item.metaPlan?.form === 'composition' && item.text.includes('\nkind: meta\n'),
  );
  assert.equal(metas.length, 5);
  for (const analysis of metas) {
    const result = compileSkill(fs, analysis, 'metaskill-sop', join(dirname(analysis.dir), analysis.name!));
    const refused = result.diagnostics.filter((item) => item.code === 'compile_unsupported');
    assert.ok(refused.length > 0, shown(analysis));
    assert.equal(result.files.length, 0);
    // Each finding is on a key the source writes.
    for (const item of refused)
      assert.match(
        analysis.text.slice(item.span.start, item.span.end),
        /^[a-z_]+$/,
        `${shown(analysis)}: ${item.message}`,
      );
  }
});
