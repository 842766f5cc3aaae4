import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestType } from 'vscode-languageserver-protocol';
import * as protocol from '../../../server/src/protocol';
import { CUSTOM_REQUEST_METHODS } from '../../../server/src/service/customRequests';

test('every request the protocol declares has one provider, and no provider answers a request it does not declare', () => {
  const declared = Object.values(protocol as Record<string, unknown>)
    .filter((value): value is RequestType<unknown, unknown, void> => value instanceof RequestType)
    .map((type) => type.method)
    .sort();
  assert.ok(declared.length >= 9, `the protocol declares its requests (${declared.join(', ')})`);
  assert.deepEqual([...CUSTOM_REQUEST_METHODS].sort(), declared);
});
