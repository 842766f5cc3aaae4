import { CATEGORIES, type Rule } from '../server/src/checks/engine/rule';

/** Where the generated part of docs/rules/README.md starts: what is above it is written by hand and kept. */
export const GENERATED_MARK =
  '<!-- Everything below is generated from the rules declared in server/src by scripts/ruleCatalog.ts (npm run build). -->';

const formatsOf = (rule: Rule) => (rule.formats === 'all' ? 'all' : rule.formats.map((id) => `\`${id}\``).join(', '));

/**
 * The rules index: the hand-written introduction of `previous` (up to the mark), then a table per category, in the
 * catalog's order, with each rule's default severity, fix, formats and summary.
 */
export function docsIndex(rules: readonly Rule[], previous: string): string {
  const at = previous.indexOf(GENERATED_MARK);
  const introduction = (at === -1 ? previous : previous.slice(0, at)).trimEnd();
  const sections = Object.entries(CATEGORIES).flatMap(([category, title]) => {
    const inCategory = rules.filter((rule) => rule.category === category);
    if (inCategory.length === 0) return [];
    return [
      `### ${title}`,
      '',
      '| code | default severity | fix | formats | what it catches |',
      '|---|---|---|---|---|',
      ...inCategory.map(
        (rule) =>
          `| [\`${rule.code}\`](${rule.code}.md)${rule.stability === 'preview' ? ' (preview)' : ''} | ${rule.severity} | ${rule.fixable ?? ''} | ${formatsOf(rule)} | ${rule.summary.replace(/\|/g, '\\|')} |`,
      ),
      '',
    ];
  });
  return [introduction, '', GENERATED_MARK, '', ...sections].join('\n');
}
