import type { SkillCatalog } from '../../server/src/workspace/skillCatalog';

/** The options an analysis cache analyses every skill with, when no settings or configuration are in play. */
export function defaultOptions(catalog: SkillCatalog) {
  return () => ({ options: { severities: {}, strict: false, catalog }, key: '' });
}
