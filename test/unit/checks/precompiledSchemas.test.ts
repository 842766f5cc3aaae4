import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { createAjv, SCHEMAS } from '../../../server/src/checks/schemaSet';
import * as precompiled from '../../../server/src/checks/schemaValidators.generated';
import { discoverSkills } from '../../../server/src/workspace/discover';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { CORPUS } from '../../helpers/corpus';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

/** Every YAML value a skill holds that a schema may be asked about: the frontmatter, its `composition`, each fenced YAML block. */
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
  assert.ok(compared > 400 && failing > 100 && failing < compared, `${compared} values compared, ${failing} with errors`);
});
