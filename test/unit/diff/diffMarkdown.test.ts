import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { toGraphJson } from '../../../server/src/forms/graphJson';
import { COMMENT_CHARS, diffMarkdown } from '../../../server/src/diff/diffMarkdown';
import type { SkillDiff } from '../../../server/src/diff/diffReport';
import { diffGraphs } from '../../../server/src/diff/graphDiff';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { writeAipSkill } from '../../support/generate';
import type { GraphJson } from '../../../server/src/protocol';

// The pull-request comment `diff --format markdown` writes, held to what a GitHub comment can hold: a change to many
// skills, or one large change, still posts, and says what it left out.

const fs = new NodeFileSystem();

/**
 * A generated procedure of `steps` steps changed by renaming its first `renamed` steps (their dependants following),
 * and, with `retype`, every integer output retyped: the skill's change as the CLI gives it to diffMarkdown.
 */
function changed(steps: number, renamed: number, retype = false): { skill: SkillDiff; afterEdges: GraphJson['edges'] } {
  const root = mkdtempSync(path.join(tmpdir(), 'sg-markdown-'));
  const before = writeAipSkill(path.join(root, 'before'), 'procedure', steps);
  const afterDir = path.join(root, 'after', 'procedure');
  cpSync(before.dir, afterDir, { recursive: true });
  let text = before.text;
  for (let i = 0; i < renamed; i++) {
    const number = String(i).padStart(4, '0');
    text = text.replace(new RegExp(`\\bstep-${number}\\b`, 'g'), `renamed-${number}`);
  }
  if (retype) text = text.replace(/type: integer/g, 'type: float');
  writeFileSync(path.join(afterDir, 'SKILL.md'), text);
  const after = toGraphJson(analyzeSkill(fs, path.join(afterDir, 'SKILL.md')));
  const diff = diffGraphs(toGraphJson(analyzeSkill(fs, before.file)), after);
  const files = { added: [], removed: [], changed: ['SKILL.md'] };
  return {
    skill: { path: 'procedure', hashBefore: 'sha256:0', hashAfter: 'sha256:1', files, diff },
    afterEdges: after.edges,
  };
}

/** How many table rows a skill's change has: its files, nodes, edges, orphaned inputs and findings. */
const rowsOf = ({ files, diff }: SkillDiff) =>
  files.added.length +
  files.removed.length +
  files.changed.length +
  diff.nodes.length +
  diff.edges.length +
  diff.orphaned.length +
  diff.findings.length;

/** Every line of a table a row: `| … |`. */
function assertTablesWhole(markdown: string): void {
  const tableLines = markdown.split('\n').filter((line) => line.startsWith('|'));
  assert.ok(tableLines.length > 0);
  for (const line of tableLines) assert.match(line, /^\|.*\|$/);
}

test('a small change is shown whole: its table and its drawing', () => {
  const one = changed(40, 3);
  const markdown = diffMarkdown([one]);
  assert.match(markdown, /^### Skillgraph: 1 skill changed\n/);
  assert.match(markdown, /```mermaid\nflowchart TD\n/);
  assert.equal(markdown.match(/^\| node \| renamed \|/gm)?.length, 3);
  assert.doesNotMatch(markdown, /left out|not shown/);
});

test('many skills changed: the comment holds what fits, whole, and names the skills left out', () => {
  const one = changed(40, 40);
  const skills = Array.from({ length: 100 }, (_, index) => ({
    skill: { ...one.skill, path: `skills/procedure-${index}` },
    afterEdges: one.afterEdges,
  }));
  const markdown = diffMarkdown(skills);
  assert.ok(markdown.length <= COMMENT_CHARS, `${markdown.length} characters`);
  assert.match(markdown, /^### Skillgraph: 100 skills changed\n/);
  const shown = markdown.match(/^#### `skills\/procedure-\d+ \(aip-0\.3\)`$/gm) ?? [];
  assert.ok(shown.length >= 2 && shown.length < 100, `${shown.length} shown`);
  // The skills shown come first, in order: the first whole, drawing and all; those the room left is too short for
  // without their drawings (said so), every one with its table.
  shown.forEach((heading, index) => assert.equal(heading, `#### \`skills/procedure-${index} (aip-0.3)\``));
  const sections = markdown.split(/^#### /m).slice(1);
  const drawn = sections.map((section) => section.includes('```mermaid'));
  assert.ok(drawn[0] && drawn.lastIndexOf(true) === drawn.indexOf(false) - 1, JSON.stringify(drawn));
  for (const section of sections.filter((_, index) => !drawn[index]))
    assert.match(section, /^The drawing of the changed part is left out: the comment has no room for it\.$/m);
  assert.ok(sections.every((section) => section.includes('| node | renamed |')));
  const leftOut =
    /^(\d+) more skills changed, not shown \(a comment holds [\d,]+ characters; run `skillgraph diff` for every change\): `skills\/procedure-(\d+)`/m.exec(
      markdown,
    );
  assert.ok(leftOut, markdown.slice(-600));
  assert.equal(Number(leftOut[1]), 100 - shown.length);
  assert.equal(Number(leftOut[2]), shown.length, 'the first skill left out is the one after the last shown');
  assertTablesWhole(markdown);
});

test('a drawing too large to show is left out and said so; the table stays whole', () => {
  const large = changed(1000, 250);
  const markdown = diffMarkdown([large]);
  assert.doesNotMatch(markdown, /```mermaid/);
  assert.match(
    markdown,
    /^The drawing of the changed part is left out: its [\d,]+ characters of Mermaid are more than a comment can show\.$/m,
  );
  assert.equal(markdown.match(/^\| node \| renamed \|/gm)?.length, 250);
  assert.doesNotMatch(markdown, /not shown/);
});

test('one change larger than a comment: its table is cut to fit, with a row counting the rest', () => {
  const huge = changed(1000, 1000, true);
  const markdown = diffMarkdown([huge]);
  assert.ok(markdown.length <= COMMENT_CHARS, `${markdown.length} characters`);
  assert.doesNotMatch(markdown, /```mermaid/);
  assert.match(markdown, /^The drawing of the changed part is left out: /m);
  const more = /^\| … \| \| ([\d,]+) more changes not shown: run `skillgraph diff` for every change \|$/m.exec(
    markdown,
  );
  assert.ok(more);
  const rows = markdown.split('\n').filter((line) => /^\| (file|node|edge|input|finding) \|/.test(line)).length;
  assert.equal(rows + Number(more[1].replace(/,/g, '')), rowsOf(huge.skill), 'every change is shown or counted');
  assert.match(markdown, /<sub>revision sha256:1<\/sub>\n$/);
  assertTablesWhole(markdown);
});
