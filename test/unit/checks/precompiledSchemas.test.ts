import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { createAjv, SCHEMAS } from '../../../server/src/checks/schema/schemaSet';
import { schemaViolation } from '../../../server/src/formats/aip/read/procedureBlock';
import * as precompiled from '../../../server/src/checks/schema/schemaValidators.generated';
import { discoverSkills } from '../../../server/src/workspace/discover';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { CORPUS } from '../../support/corpus';
import { random } from '../../support/random';
import { writeAip05Skill, writeAipSkill } from '../../support/generate';
import { validateAgainstSchema } from '../../../server/src/checks/schema/schemaValidation';
import { parseYamlRegion } from '../../../server/src/parse/yaml/yamlSyntax';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

/**
 * Every YAML value a skill holds that a schema may be asked about: the frontmatter, its `composition`, each fenced YAML
 * block.
 */
function yamlValues(text: string): unknown[] {
  const values: unknown[] = [];
  const read = (source: string) => {
    try {
      values.push(parse(source));
    } catch {
      // Not YAML: the analyzer reports it before any schema is asked.
    }
  };
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (frontmatter) {
    read(frontmatter[1]);
    const composition = (values.at(-1) as { composition?: unknown } | null)?.composition;
    if (composition !== undefined) values.push(composition);
  }
  for (const block of text.matchAll(/^```ya?ml\r?\n([\s\S]*?)^```/gm)) read(block[1]);
  return values;
}

test('the validators generated at build time report exactly what ajv compiling the schemas at run time reports, on every corpus and example skill', (t) => {
  const fs = new NodeFileSystem();
  const skills = discoverSkills(fs, [CORPUS, EXAMPLES], CORPUS).skills;
  assert.ok(skills.length >= 80, `${skills.length} skills`);
  const runtime = createAjv();
  let compared = 0;
  let failing = 0;
  for (const [name, schema] of Object.entries(SCHEMAS) as [keyof typeof SCHEMAS, object][]) {
    const compiled = runtime.compile(schema);
    const generated = precompiled[name];
    assert.equal(precompiled.ids[name], (schema as { $id: string }).$id);
    for (const skill of skills) {
      for (const value of yamlValues(readFileSync(skill.file, 'utf8'))) {
        const valid = compiled(value);
        assert.equal(generated(value), valid, `${name} on ${skill.display}`);
        assert.deepEqual(generated.errors ?? null, compiled.errors ?? null, `${name} on ${skill.display}`);
        compared++;
        if (!valid) failing++;
      }
    }
  }
  t.diagnostic(`${skills.length} skills, ${compared} values compared (${failing} with errors)`);
  // Both outcomes are exercised: values that fit a schema and values that do not.
  assert.ok(
    compared > 400 && failing > 100 && failing < compared,
    `${compared} values compared, ${failing} with errors`,
  );
});

test('a procedure or a composition checked step by step (unchanged steps skipped) is found valid exactly when ajv finds the whole of it valid', (t) => {
  const runtime = createAjv();
  const root = mkdtempSync(join(tmpdir(), 'sg-steps-'));
  const procedures = [writeAipSkill(root, 'p03', 40), writeAip05Skill(root, 'p05', 40)].map(
    (skill) => parse(skill.procedure) as { steps: Record<string, unknown>[] },
  );
  // The corpus's largest MetaSkill: its composition, 77 steps.
  const drama = readFileSync(
    join(CORPUS, 'metaskill', 'opensquilla-opensquilla', 'meta-short-drama', 'SKILL.md'),
    'utf8',
  );
  procedures.push(
    (parse(/^---\n([\s\S]*?)\n---/.exec(drama)![1]) as { composition: { steps: Record<string, unknown>[] } })
      .composition,
  );
  const target = (value: unknown) => ({
    file: '/x/SKILL.md',
    yaml: parseYamlRegion(JSON.stringify(value), { start: 0, end: JSON.stringify(value).length }),
    rootSpan: { start: 0, end: 0 },
    defaultRule: schemaViolation,
    rootName: 'the procedure',
    stepsReused: true,
  });
  const next = random(3);
  let valid = 0;
  let invalid = 0;
  for (const [index, schema] of [SCHEMAS.aip03, SCHEMAS.aip05, SCHEMAS.composition].entries()) {
    const compiled = runtime.compile(schema);
    const base = procedures[index];
    // What names a step: an AIP step's `name`, a composition step's `id`.
    const nameKey = schema === SCHEMAS.composition ? 'id' : 'name';
    // Each variant shares the unchanged steps' objects with the procedure, as the chunk cache does between edits.
    const variants: unknown[] = [base, base];
    for (let round = 0; round < 60; round++) {
      const at = Math.floor(next() * base.steps.length);
      const steps = [...base.steps];
      const kind = round % 6;
      if (kind === 0) steps[at] = { ...steps[at], [nameKey]: 5 };
      else if (kind === 1) steps[at] = Object.fromEntries(Object.entries(steps[at]).filter(([key]) => key !== nameKey));
      else if (kind === 2) steps[at] = { ...steps[at], surprise: true };
      else if (kind === 3) steps[at] = { ...steps[at], description: `${String(steps[at].description)} edited` };
      else if (kind === 4) steps.splice(1);
      else steps.splice(at, 1);
      variants.push({ ...base, steps }, kind === 5 ? { ...base, unknown_root_key: 1, steps } : base);
    }
    for (const value of variants) {
      const expected = compiled(value);
      assert.equal(
        validateAgainstSchema(schema, value, target(value)).length === 0,
        expected,
        JSON.stringify(value).slice(0, 120),
      );
      if (expected) valid++;
      else invalid++;
    }
  }
  t.diagnostic(`${valid} valid and ${invalid} invalid procedures compared`);
  assert.ok(valid > 60 && invalid > 60, `${valid} valid, ${invalid} invalid`);
});
