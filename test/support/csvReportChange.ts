import * as assert from 'node:assert/strict';

// One change to the csv-report example that touches every kind of mark the preview's change view draws: a step
// removed (choose-focus), one added in its place (chart-column), the edges of both, and an input (write-report's
// focus-column) left without its producer.

/** csv-report's SKILL.md `text` with `choose-focus` replaced by `chart-column`, which write-report now waits for. */
export function replaceChooseFocus(text: string): string {
  const chart = [
    '  - name: chart-column',
    '    description: Chart the column that stands out.',
    '    inputs:',
    '      - name: stats',
    '        type: list[object]',
    '    outputs:',
    '      - name: chart-path',
    '        type: string',
    '',
    '',
  ].join('\n');
  const step = /  - name: choose-focus\n[\s\S]*?type: string\n\n/;
  assert.match(text, step);
  const depends = 'depends_on: [profile-columns, choose-focus]';
  assert.ok(text.includes(depends));
  return text.replace(step, chart).replace(depends, 'depends_on: [profile-columns, chart-column]');
}
