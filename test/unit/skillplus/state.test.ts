import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePython } from '../../../server/src/parse/python/python';
import { readState, resolveStatePath, typeName } from '../../../server/src/formats/skillplus/read/readState';
import { analyzePackage, edit, expectIn, PACKAGE } from '../../support/skillplus';

test('state.py is read without running it: types, nullability, defaults, inputs, nested models', () => {
  const source = `from typing import Literal, Optional
from pydantic import BaseModel, Field

class Inner(BaseModel):
    score: int = 0

class State(BaseModel):
    name: str
    level: Literal["a", "b"] | None = None
    maybe: Optional[int] = None
    tags: list[str] = Field(default_factory=list)
    table: dict[str, Inner] = Field({}, json_schema_extra={"input": True})
    inner: Inner = Field(default_factory=Inner)
    odd: set[int] = set()
`;
  const schema = readState(parsePython('/p/state.py', source), 'State');
  assert.deepEqual(
    schema.root!.fields.map((field) => [
      field.name,
      typeName(field.type),
      field.nullable,
      field.hasDefault,
      field.input,
    ]),
    [
      ['name', 'str', false, false, true],
      ['level', 'Literal["a", "b"]', true, true, false],
      ['maybe', 'int', true, true, false],
      ['tags', 'list[str]', false, true, false],
      ['table', 'dict[str, Inner]', false, true, true],
      ['inner', 'Inner', false, true, false],
      ['odd', 'set[int]', false, true, false],
    ],
  );
  assert.deepEqual(
    schema.unreadable.map((field) => field.name),
    ['odd'],
  );
  const resolved = resolveStatePath(schema, ['inner', 'score']);
  assert.ok(resolved.ok && resolved.type.kind === 'int');
  assert.deepEqual(resolveStatePath(schema, ['inner', 'scor']), { ok: false, failedAt: 1, candidates: ['score'] });
});

test('a class cycle in state.py is read and resolved without looping', () => {
  const source =
    'from pydantic import BaseModel\n\nclass A(BaseModel):\n    b: "B"\n    child: B = None\n\nclass B(BaseModel):\n    a: A = None\n\nclass State(BaseModel):\n    a: A = None\n';
  const schema = readState(parsePython('/p/state.py', source), 'State');
  const long = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 'a' : 'child'));
  assert.equal(resolveStatePath(schema, ['a', ...long]).ok, false);
  assert.equal(resolveStatePath(schema, ['a', 'child', 'a', 'child']).ok, true);
});

test('unknown_state_path: into, on and over name fields (did you mean)', () => {
  const { analysis, spans } = analyzePackage(
    edit('flow.py', 'with flow.branch("gate", on="approved") as b:', 'with flow.branch("gate", on="«aproved»") as b:'),
  );
  const [found] = expectIn(analysis, 'unknown_state_path', spans['flow.py']);
  assert.equal(found.data?.suggestion, 'approved');
});

test('state_type_mismatch: a confirm into a str, an ask whose Literal lacks a choice, merge="replace" on a scalar', () => {
  const flow = PACKAGE['flow.py']
    .replace(
      'flow.confirm("ok", "Plan the trip to {destination}?", into="approved")',
      'flow.confirm("ok", "Plan the trip to {destination}?", into="«plan»")\n        flow.agent("mark", "Mark it.", into="approved", merge="«replace»")',
    )
    .replace('into="budget", choices=["low", "mid", "high"])', 'into="«budget»", choices=["low", "mid", "lavish"])');
  const { analysis, spans } = analyzePackage({ 'flow.py': flow });
  const found = expectIn(analysis, 'state_type_mismatch', spans['flow.py']);
  assert.match(found[0].message, /does not hold the choice "lavish"/);
  assert.match(found[1].message, /A confirm writes yes or no: `plan` must be `bool`, not `str`/);
  assert.match(found[2].message, /`merge="replace"` replaces a list or a dict/);
});

test("unknown_placeholder: a State path, an item in scope and a field of the item's model are checked; {{ }} are literal braces", () => {
  const flow = PACKAGE['flow.py']
    .replace('"List the stops for {destination}."', '"List the stops for {«destinatin»} {{not a placeholder}}."')
    .replace('"Notes on {s.city} for {s.nights} nights."', '"Notes on {s.city} for {«s.nigths»} nights, not {«t»}."');
  const { analysis, spans } = analyzePackage({ 'flow.py': flow });
  const found = expectIn(analysis, 'unknown_placeholder', spans['flow.py']);
  assert.equal(found[0].data?.suggestion, 'destination');
  assert.match(found[1].message, /`\{s\.nigths\}`: Stop has no field `nigths` \(it has city, nights\)/);
  assert.match(found[2].message, /names no State path and no item in scope \(s\)/);
});

test('field_never_written: a field with a default that no node writes', () => {
  const { analysis, spans } = analyzePackage(
    edit('state.py', '    plan: str = ""\n', '    plan: str = ""\n    «unused»: int = 3\n'),
  );
  const [found] = expectIn(analysis, 'field_never_written', spans['state.py']);
  assert.match(found.message, /it keeps 3 for the whole run/);
});

test('state_type_unreadable and invalid_state: an annotation skill+ cannot read; a missing class; a state.py that is not Python', () => {
  const odd = analyzePackage(
    edit('state.py', '    plan: str = ""\n', '    plan: str = ""\n    seen: «set[str]» = set()\n'),
  );
  expectIn(odd.analysis, 'state_type_unreadable', odd.spans['state.py']);
  const renamed = analyzePackage({
    'state.py': '«»' + PACKAGE['state.py'].replace('class State(BaseModel):', 'class Trip(BaseModel):'),
  });
  assert.match(
    expectIn(renamed.analysis, 'invalid_state', renamed.spans['state.py'])[0].message,
    /defines no class `State` \(it has Stop, Trip\)/,
  );
  const broken = analyzePackage({
    'state.py': 'from pydantic import BaseModel\n\nclass State(BaseModel«:»\n    x: int = 1\n',
  });
  assert.match(expectIn(broken.analysis, 'invalid_state', broken.spans['state.py'])[0].message, /not valid Python/);
});
