import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/**
 * The rows of an expectation table (test/corpus/expected-*.md) as `file code line`, sorted; every row must say why the
 * finding is right.
 */
export function expectationRows(table: string): string[] {
  return readFileSync(table, 'utf8')
    .split('\n')
    .filter((line) => /^\| (plain|aip-v0[35]|metaskill|skillplus|examples)\//.test(line))
    .map((line) => {
      const [file, code, lineNumber, why] = line
        .split('|')
        .slice(1, 5)
        .map((cell) => cell.trim());
      assert.ok(why.length > 20, `row for ${file} ${code} needs a reason`);
      return `${file} ${code} ${lineNumber}`;
    })
    .sort();
}
