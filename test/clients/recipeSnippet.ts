import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const EDITORS_DOC = path.join(__dirname, '..', '..', 'docs', 'editors.md');

/**
 * The `index`-th fenced block in `language` under docs/editors.md's `### heading`: the editor tests load the very
 * recipes a user pastes, so a recipe that stops working fails a test.
 */
export function recipeSnippet(heading: string, language: string, index = 0): string {
  const text = readFileSync(EDITORS_DOC, 'utf8');
  const start = text.indexOf(`\n### ${heading}\n`);
  if (start < 0) throw new Error(`docs/editors.md has no "### ${heading}" section`);
  const end = text.slice(start + 1).search(/\n#{2,3} /);
  const section = end < 0 ? text.slice(start) : text.slice(start, start + 1 + end);
  const blocks = [...section.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm'))];
  if (!blocks[index]) throw new Error(`docs/editors.md's "${heading}" section has no ${language} block #${index}`);
  return blocks[index][1];
}
