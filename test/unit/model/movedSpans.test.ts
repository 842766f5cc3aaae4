import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { movedNode } from '../../../server/src/model/movedSpans';
import type { ControlRef, FileLink, GraphNode, Port, SkillRef } from '../../../server/src/model/skillModel';
import type { Span } from '../../../server/src/parse/lineIndex';

// Every field of a node filled in (the `Required` types make a field added
// to the model fail to compile here until the fixture has it), so a span the
// mover forgets is found: every {start, end} in the copy must be moved.

let next = 100;
const span = (): Span => ({ start: next, end: (next += 7) });

const port = (direction: Port['direction']): Required<Port> => ({
  name: `${direction}-value`,
  direction,
  nodeId: 'load',
  type: 'string',
  nullable: true,
  description: 'A value.',
  span: span(),
  feeds: 'task',
  nameSpan: span(),
  typeSpan: span(),
});
const link: Required<FileLink> = { path: 'scripts/load.py', span: span(), role: 'script' };
const ref: Required<ControlRef> = { target: 'next', span: span(), via: 'branch', label: 'true' };
const skillRef: Required<SkillRef> = { name: 'helper', span: span(), via: 'route', when: 'x > 1', file: '/skills/helper/SKILL.md' };
const node: Required<GraphNode> = {
  id: 'load',
  kind: 'step',
  label: 'load',
  span: span(),
  nameSpan: span(),
  description: { text: 'Loads it.', span: span() },
  inputs: [port('input')],
  outputs: [port('output')],
  script: { ...link },
  links: [{ path: 'references/guide.md', span: span(), role: 'reference' }],
  controlRefs: [ref],
  oneOf: ['a', 'b'],
  parallel: true,
  skillRefs: [skillRef],
  guard: { text: 'x > 1', span: span() },
  group: 'stage-1',
  attachments: [{ kind: 'tip', id: 'tip-1', file: '/skills/x/tips/tip-1.md', soft: true }],
};

/** Every span in a value, found by shape, with the path that leads to it. */
function spans(value: unknown, at = 'node'): [string, Span][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => spans(item, `${at}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  const here: [string, Span][] = typeof (value as Span).start === 'number' && typeof (value as Span).end === 'number' ? [[at, value as Span]] : [];
  return [...here, ...Object.entries(value).flatMap(([key, item]) => spans(item, `${at}.${key}`))];
}

test('a moved node has every span moved by the delta, everything else equal, and leaves the original as it was', () => {
  const original = structuredClone(node);
  for (const delta of [13, -50]) {
    const moved = movedNode(node, delta);
    const before = spans(node);
    const after = spans(moved);
    assert.equal(before.length, 14, 'the fixture has a span in every place the model can hold one');
    assert.deepEqual(
      after.map(([at, item]) => [at, item.start, item.end]),
      before.map(([at, item]) => [at, item.start + delta, item.end + delta]),
    );
    // Apart from the spans, the copy is the node.
    const withoutSpans = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, item) => (typeof item?.start === 'number' ? 'span' : item)));
    assert.deepEqual(withoutSpans(moved), withoutSpans(node));
    assert.notEqual(moved.inputs[0], node.inputs[0], 'ports are copies, not shared with the previous analysis');
  }
  assert.deepEqual(node, original, 'the original is unchanged');
});
