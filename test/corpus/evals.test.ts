import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../server/src/analyze';
import { toGraphJson } from '../../server/src/forms/graphJson';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { OverlayFileSystem } from '../../server/src/workspace/overlayFileSystem';
import { CORPUS, skillFilesUnder } from '../support/corpus';

// Evals written for the corpus's real skills (held in memory beside each one; the corpus is never written): a case per
// step that names it, and a balanced trigger query set, are quiet and link every step in the graph; a step named a
// letter off is caught with the step meant.

const disk = new NodeFileSystem();
const EVAL_CODES = ['invalid_evals', 'eval_unknown_target', 'invalid_trigger_queries', 'trigger_queries_one_sided'];

function withEvals(file: string, evals: unknown, queries: unknown) {
  const dir = path.dirname(file);
  const fs = new OverlayFileSystem(
    disk,
    new Map([
      [path.join(dir, 'evals', 'evals.json'), JSON.stringify(evals, null, 2)],
      [path.join(dir, 'evals', 'eval_queries.json'), JSON.stringify(queries, null, 2)],
    ]),
  );
  return analyzeSkill(fs, file);
}

test('evals on every corpus skill with steps: a case naming each step is quiet, and each step shows its case in the graph', () => {
  let skills = 0;
  let steps = 0;
  for (const file of skillFilesUnder(CORPUS)) {
    const plain = analyzeSkill(disk, file);
    const ids = [...new Set(plain.model.nodes.filter((node) => node.kind !== 'external-input').map((node) => node.id))];
    if (ids.length === 0) continue;
    const evals = {
      ...(plain.name ? { skill_name: plain.name } : {}),
      evals: ids.map((id, index) => ({
        id: index + 1,
        prompt: `Run the skill on a realistic request that needs ${id}.`,
        expected_output: 'What the skill promises.',
        expectations: [`step \`${id}\` runs and its result is used`],
      })),
    };
    const queries = [
      { query: `${plain.name ?? 'this skill'}: do what it is for`, should_trigger: true },
      { query: 'what is the weather today', should_trigger: false },
    ];
    const analysis = withEvals(file, evals, queries);
    assert.deepEqual(
      analysis.diagnostics.filter((item) => EVAL_CODES.includes(item.code)).map((item) => item.message),
      [],
      file,
    );
    const graph = toGraphJson(analysis);
    for (const id of ids)
      assert.ok(
        graph.nodes.some(
          (node) => node.id === id && node.evals?.some((item) => item.id === String(ids.indexOf(id) + 1)),
        ),
        `${path.relative(CORPUS, file)}: ${id}`,
      );
    // The first step named with two letters swapped is caught, with the step meant.
    const [first] = ids;
    if (first.length >= 4) {
      const typo = `${first.slice(0, -2)}${first.slice(-1)}${first.slice(-2, -1)}`;
      if (typo !== first && !ids.includes(typo)) {
        const wrong = withEvals(
          file,
          { evals: [{ id: 1, prompt: 'x', expected_output: 'y', expectations: [`step \`${typo}\` runs`] }] },
          queries,
        );
        const found = wrong.diagnostics.filter((item) => item.code === 'eval_unknown_target');
        assert.equal(found.length, 1, file);
        assert.match(found[0].message, new RegExp(`did you mean \`${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``));
      }
    }
    skills++;
    steps += ids.length;
  }
  // The corpus's AIP, MetaSkill and skill+ skills (and the plain skills its MetaSkills compose, which have none).
  assert.ok(skills >= 20 && steps >= 100, `${skills} skills, ${steps} steps`);
});
