import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../../server/src/analyze';
import { IncrementalState } from '../../../server/src/incremental/incrementalState';
import { YamlChunkCache } from '../../../server/src/parse/yaml/yamlChunkCache';
import { CHUNK_THRESHOLD } from '../../../server/src/parse/yaml/yamlChunks';
import { splitRegion } from '../../../server/src/parse/yaml/yamlSplit';
import { parseSkillFile } from '../../../server/src/parse/markdown/skillFile';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { parseYamlRegion, type YamlSyntax } from '../../../server/src/parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan, yamlLocationAt } from '../../../server/src/parse/yaml/yamlNodes';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { writeAipSkill } from '../../support/generate';
import { random } from '../../support/random';
import { CORPUS } from '../../support/corpus';
import { asAip } from '../../support/formatParts';

const FILE = '/skills/procedure-80/SKILL.md';

/** What an analysis says, without object identity: diagnostics, nodes, edges, the parsed value. */
function observable(analysis: SkillAnalysis) {
  return {
    diagnostics: analysis.diagnostics.map((item) => [item.code, item.span.start, item.span.end, item.message]),
    nodes: analysis.model.nodes.map((node) => [
      node.id,
      node.span,
      node.nameSpan,
      node.inputs.map((port) => [port.name, port.type, port.nameSpan]),
      node.outputs.map((port) => [port.name, port.nameSpan]),
      node.controlRefs.map((ref) => [ref.target, ref.span]),
    ]),
    edges: analysis.model.edges.map((edge) => [edge.from, edge.to, edge.kind, edge.label, edge.span]),
    value: asAip(analysis).procedure?.yaml.value,
  };
}

function generated(): string {
  const skill = writeAipSkill(mkdtempSync(path.join(tmpdir(), 'sg-chunks-')), 'procedure-80', 80);
  assert.ok(skill.text.length > CHUNK_THRESHOLD * 2);
  return skill.text;
}

test('a chunked parse with reuse gives exactly the whole parse, over a sequence of random edits', () => {
  const fs = new MemoryFileSystem({ '/skills/procedure-80/scripts/.keep': '' });
  const state = new IncrementalState();
  let text = generated();
  const next = random(11);
  // Mostly keystrokes that keep the YAML valid, as while typing a description; a line break there breaks it.
  const pieces = ['x', 'x', 'x', ' word', 'x', ': ', '"', '', '', '\n'];
  let chunkedRuns = 0;
  for (let edit = 0; edit < 60; edit++) {
    const whole = analyzeSkill(fs, FILE, { text });
    const chunked = analyzeSkill(fs, FILE, { text, incremental: state });
    assert.deepEqual(observable(chunked), observable(whole), `edit ${edit}`);
    if (
      asAip(chunked).procedure?.yaml.doc.errors.length === 0 &&
      whole.diagnostics.every((item) => item.code !== 'invalid_body_yaml')
    )
      chunkedRuns++;
    // Type into a random step description; now and then break or repair something.
    const descriptions = [...text.matchAll(/and pass the result on/g)];
    const at = descriptions[Math.floor(next() * descriptions.length)].index! + 4;
    const piece = edit % 20 === 19 ? '\n' : pieces[Math.floor(next() * (pieces.length - 1))];
    text = piece === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + piece + text.slice(at);
  }
  assert.ok(chunkedRuns > 10, `only ${chunkedRuns} runs parsed cleanly`);
});

test('unchanged chunks are reused: the second analysis parses only the edited step', () => {
  const fs = new MemoryFileSystem();
  const state = new IncrementalState();
  const text = generated();
  const stepsOf = (analysis: SkillAnalysis) => [
    ...(nodeAtPath(asAip(analysis).procedure!.yaml, ['steps']).node as unknown as { items: unknown[] }).items,
  ];
  const firstSteps = stepsOf(analyzeSkill(fs, FILE, { text, incremental: state }));
  const edited = text.replace('step-0040\n    description: >\n', 'step-0040\n    description: >\n      Edited.\n');
  assert.notEqual(edited, text);
  const second = analyzeSkill(fs, FILE, { text: edited, incremental: state });
  const secondSteps = stepsOf(second);
  const reused = secondSteps.filter((node) => firstSteps.includes(node)).length;
  assert.equal(reused, secondSteps.length - 1);
  assert.deepEqual(observable(second), observable(analyzeSkill(fs, FILE, { text: edited })));
});

test('aliases, small regions and broken YAML are parsed whole; anchors, tags and Markdown asterisks are chunked alike', () => {
  const fs = new MemoryFileSystem();
  const text = generated();
  const versions = [
    // An alias in one step of an anchor in another: chunk by chunk it would not resolve.
    text
      .replace('step-0002\n    description: >', 'step-0002\n    description: &shared >')
      .replace('step-0060\n    description: >\n', 'step-0060\n    description: *shared\n    notes: >\n'),
    // An anchor without an alias, a tag, and `**` and `&` in prose: the same in a chunk as in the whole.
    text
      .replace('purpose: >', 'purpose: &p >')
      .replace(
        'step-0010\n    description: >\n      ',
        'step-0010\n    description: !!str >\n      **Bold** & *more* ',
      ),
    // The steps' header holding more than the key: a whole parse rejects a mapping followed by a list.
    text.replace('steps:\n  - name: step-0000', 'steps:\n  note: x\n  - name: step-0000'),
    // A directive line, a second document.
    text.replace('steps:\n', '%YAML 1.2\nsteps:\n'),
    text.replace('trigger_when:', '---\ntrigger_when:'),
  ];
  for (const version of versions) {
    assert.notEqual(version, text);
    const state = new IncrementalState();
    analyzeSkill(fs, FILE, { text, incremental: state });
    assert.deepEqual(
      observable(analyzeSkill(fs, FILE, { text: version, incremental: state })),
      observable(analyzeSkill(fs, FILE, { text: version })),
    );
  }
  // The alias resolves as in the whole parse: the step's description is its anchor's text.
  assert.ok(versions[0].includes('description: *shared'));
  const steps = (
    asAip(analyzeSkill(fs, FILE, { text: versions[0], incremental: new IncrementalState() })).procedure!.yaml.value as {
      steps: { description: string }[];
    }
  ).steps;
  assert.ok(steps[2].description.startsWith('Score metrics'), steps[2].description);
  assert.equal(steps[60].description, steps[2].description);
});

test('moved chunks answer position lookups at their new place, as a whole parse does', () => {
  const fs = new MemoryFileSystem();
  const state = new IncrementalState();
  let text = generated();
  analyzeSkill(fs, FILE, { text, incremental: state });
  // An edit near the top moves every later step; then one near the end.
  text = text.replace('step-0001\n    description: >\n', 'step-0001\n    description: >\n      Inserted line.\n');
  analyzeSkill(fs, FILE, { text, incremental: state });
  text = text.replace('step-0070\n', 'step-0070-renamed\n');
  const chunked = asAip(analyzeSkill(fs, FILE, { text, incremental: state })).procedure!.yaml;
  const whole = asAip(analyzeSkill(fs, FILE, { text })).procedure!.yaml;
  const describe = (yaml: typeof whole, offset: number) => {
    const location = yamlLocationAt(yaml, offset);
    return {
      path: location.path,
      onKey: location.onKey,
      node: nodeSpan(yaml, location.node),
      chain: location.chain.map((node) => nodeSpan(yaml, node)),
    };
  };
  let checked = 0;
  for (let offset = whole.base; offset < text.lastIndexOf('```'); offset += 97) {
    assert.deepEqual(describe(chunked, offset), describe(whole, offset), `offset ${offset}`);
    checked++;
  }
  assert.ok(checked > 300, `${checked} offsets`);
  const renamed = text.indexOf('step-0070-renamed');
  assert.deepEqual(describe(chunked, renamed).path, ['steps', 70, 'name']);
});

test('a step pasted twice, then edited around, is parsed once per place: equal copies never share nodes', () => {
  const fs = new MemoryFileSystem();
  const state = new IncrementalState();
  let text = generated();
  const stepsOf = (analysis: SkillAnalysis) => [
    ...(nodeAtPath(asAip(analysis).procedure!.yaml, ['steps']).node as unknown as { items: unknown[] }).items,
  ];
  analyzeSkill(fs, FILE, { text, incremental: state });
  // The text of step 40 pasted after step 41 and again after step 60 (repeated names are a finding, not a parse
  // problem). A whole list item: from its line to the next item at the same indentation (an input's `- name:` is
  // deeper).
  const step = (name: string) =>
    text.slice(
      text.indexOf(`\n  - name: ${name}\n`) + 1,
      text.indexOf('\n  - name: ', text.indexOf(`\n  - name: ${name}\n`) + 1) + 1,
    );
  const copy = step('step-0040');
  text = text.replace(step('step-0042'), copy + step('step-0042')).replace(step('step-0061'), copy + step('step-0061'));
  for (const edit of [
    (t: string) => t,
    (t: string) => t.replace('step-0001\n', 'step-0001x\n'),
    (t: string) => t.replace('step-0070\n', 'step-070\n'),
  ]) {
    text = edit(text);
    const chunked = analyzeSkill(fs, FILE, { text, incremental: state });
    assert.deepEqual(observable(chunked), observable(analyzeSkill(fs, FILE, { text })));
    const steps = stepsOf(chunked);
    assert.equal(new Set(steps).size, steps.length, 'every step its own node');
    assert.equal(
      steps.filter((node) => String((node as { toJSON(): { name: string } }).toJSON().name) === 'step-0040').length,
      3,
    );
    assert.equal(chunked.model.nodes.length, 82);
  }
});

test('typing inside a step moves the last split of the procedure; a change that can start a key or a step splits it again', () => {
  const fs = new MemoryFileSystem();
  const state = new IncrementalState();
  const cache = state.yaml;
  let text = generated();
  const region = (skillText: string) => {
    const syntax = parseSkillFile(skillText);
    return skillText.slice(syntax.fences[0].content.start, syntax.fences[0].content.end);
  };
  analyzeSkill(fs, FILE, { text, incremental: state });
  const next = random(5);
  let moved = 0;
  for (let edit = 0; edit < 40; edit++) {
    const descriptions = [...text.matchAll(/and pass the result on/g)];
    const at = descriptions[Math.floor(next() * descriptions.length)].index!;
    text = text.slice(0, at) + (edit % 2 === 0 ? 'x' : 'x\n      y') + text.slice(at);
    const shifted = cache.region('strict').layoutFor(region(text));
    if (shifted) {
      assert.deepEqual(shifted, splitRegion(region(text)), `edit ${edit}`);
      moved++;
    }
    analyzeSkill(fs, FILE, { text, incremental: state });
  }
  assert.equal(moved, 40, 'every edit inside a description moves the split');
  // A new step or a new top-level key, at a step's start or inside one, and text in the steps' header: split again.
  const inside = text.indexOf('and pass the result on', text.indexOf('name: step-0040'));
  const changes = [
    text.replace('  - name: step-0040\n', '  - name: pasted\n    description: x\n  - name: step-0040\n'),
    text.replace('  - name: step-0040\n', 'notes: x\n  - name: step-0040\n'),
    text.replace('steps:\n', 'steps:\n  # a comment\n'),
    `${text.slice(0, inside)}and\nnotes: x\n      pass${text.slice(inside + 8)}`,
    `${text.slice(0, inside)}and\n  - name: split\n    description: >\n      pass${text.slice(inside + 8)}`,
  ];
  for (const changed of changes)
    assert.equal(cache.region('strict').layoutFor(region(changed)), undefined, changed.slice(inside - 40, inside + 60));
});

test('an edit inside the procedure, then one outside it (the procedure text unchanged, moved): the chunks are placed as a whole parse places them', () => {
  const fs = new MemoryFileSystem({ '/skills/procedure-80/scripts/.keep': '' });
  const state = new IncrementalState();
  const text = generated();
  const inside = text.replace('step-0040\n    description: >\n      ', 'step-0040\n    description: >\n      x');
  // The frontmatter's description loses a word: the procedure below moves up, its text as after the first edit.
  const outside = inside.replace(/^description: (\S+) /m, 'description: ');
  assert.notEqual(outside, inside);
  for (const version of [text, inside, outside]) {
    assert.deepEqual(
      observable(analyzeSkill(fs, FILE, { text: version, incremental: state })),
      observable(analyzeSkill(fs, FILE, { text: version })),
    );
  }
});

/** A YAML tree as every reader of it sees it: each node's kind, range (in file offsets) and scalar value, in order. */
function tree(yaml: YamlSyntax, node: unknown = yaml.doc.contents): unknown {
  if (isMap(node))
    return {
      map: nodeSpan(yaml, node as Node),
      items: node.items.map((pair) => [tree(yaml, pair.key), tree(yaml, pair.value)]),
    };
  if (isSeq(node)) return { seq: nodeSpan(yaml, node as Node), items: node.items.map((item) => tree(yaml, item)) };
  if (isScalar(node)) return { scalar: nodeSpan(yaml, node as Node), value: node.value, type: node.type };
  return node ?? null;
}

const META_DIR = path.join(CORPUS, 'metaskill', 'opensquilla-opensquilla');

/** The corpus MetaSkills with `composition.steps` in a frontmatter large enough to be chunked. */
function chunkedMetaSkills(): { name: string; text: string }[] {
  return readdirSync(META_DIR)
    .filter((name) => existsSync(path.join(META_DIR, name, 'SKILL.md')))
    .map((name) => ({ name, text: readFileSync(path.join(META_DIR, name, 'SKILL.md'), 'utf8') }))
    .filter(({ text }) => {
      const content = parseSkillFile(text).frontmatter?.content;
      return /^composition:/m.test(text) && !!content && content.end - content.start >= CHUNK_THRESHOLD;
    });
}

const frontmatterOf = (text: string, cache?: YamlChunkCache) =>
  parseYamlRegion(text, parseSkillFile(text).frontmatter!.content, cache, 'pyyaml');
const metaStepsOf = (yaml: YamlSyntax) => [
  ...(nodeAtPath(yaml, ['composition', 'steps']).node as unknown as { items: unknown[] }).items,
];

test("a MetaSkill's frontmatter parsed in chunks equals a whole parse, tree and value, after every random edit", () => {
  const skills = chunkedMetaSkills();
  assert.ok(skills.length >= 4, `${skills.length} MetaSkills`);
  const next = random(17);
  let clean = 0;
  for (const skill of skills) {
    let text = skill.text;
    const cache = new YamlChunkCache();
    for (let round = 0; round < 30; round++) {
      const chunked = frontmatterOf(text, cache);
      const whole = frontmatterOf(text);
      assert.deepEqual(chunked.value, whole.value, `${skill.name}, round ${round}`);
      assert.deepEqual(chunked.problems, whole.problems);
      if (whole.problems.length === 0) {
        assert.deepEqual(tree(chunked), tree(whole), `${skill.name}, round ${round}`);
        clean++;
      }
      // Type into a random place of the steps; now and then a line break, a new item or a key at column 0 (the split
      // changes). Each edit is made to the skill as it is, one or two at a time: the cache goes from any version to any
      // other, broken or not.
      const from = round % 2 === 0 ? skill.text : text;
      const content = parseSkillFile(from).frontmatter!.content;
      const stepsAt = from.indexOf('\n  steps:\n');
      const anywhere = stepsAt + 10 + Math.floor(next() * (content.end - stepsAt - 10));
      // Mostly at the end of a line, as when typing a value; a third of the time anywhere (an indentation, a key: YAML
      // breaks).
      const at = round % 3 === 0 ? anywhere : from.indexOf('\n', anywhere);
      const typed =
        round % 10 === 9
          ? ['\n', '\n    - ', '\nkey: x\n'][Math.floor(next() * 3)]
          : ['x', ' y', 'z'][Math.floor(next() * 3)];
      text = from.slice(0, at) + typed + from.slice(at);
    }
  }
  assert.ok(clean > 40, `${clean} rounds parsed without problems`);
});

test("an edit inside one MetaSkill step parses that step again and keeps every other step's nodes", () => {
  for (const skill of chunkedMetaSkills()) {
    let text = skill.text;
    const cache = new YamlChunkCache();
    let last = metaStepsOf(frontmatterOf(text, cache));
    const ids = [...text.matchAll(/^ {4}- id: \S+$/gm)];
    assert.ok(ids.length >= 10, `${skill.name}: ${ids.length} steps found`);
    for (const id of [ids[1], ids[Math.floor(ids.length / 2)], ids[ids.length - 1]]) {
      // The step's id gains a letter: text above the later steps grows by one.
      const end = text.indexOf(`\n${id[0]}\n`) + 1 + id[0].length;
      text = `${text.slice(0, end)}x${text.slice(end)}`;
      const chunked = frontmatterOf(text, cache);
      assert.deepEqual(tree(chunked), tree(frontmatterOf(text)));
      const steps = metaStepsOf(chunked);
      assert.equal(steps.length, last.length);
      assert.equal(
        steps.filter((step) => last.includes(step)).length,
        steps.length - 1,
        `${skill.name}: only the edited step is parsed again`,
      );
      last = steps;
    }
    // The same text again (an edit in the body): the same document.
    assert.equal(frontmatterOf(text, cache).doc, frontmatterOf(text, cache).doc);
  }
});

test('a text composed again after a version whose composition failed is placed as a whole parse places it', () => {
  const fs = new MemoryFileSystem();
  const state = new IncrementalState();
  const text = generated();
  // Text added above the steps moves every chunk; a broken step further down makes the composition fail after the
  // chunks were placed.
  const broken = text.replace('step-0001\n', 'step-0001x\n').replace('step-0070\n', 'step-0070\n    bad: [\n');
  for (const version of [text, broken, text]) {
    const chunked = asAip(analyzeSkill(fs, FILE, { text: version, incremental: state })).procedure!.yaml;
    const whole = asAip(analyzeSkill(fs, FILE, { text: version })).procedure!.yaml;
    assert.deepEqual(tree(chunked), tree(whole));
  }
});
