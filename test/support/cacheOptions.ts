import type { SkillCatalog } from '../../server/src/workspace/skillCatalog';

/**
 * The options an analysis cache analyses every skill with, when no settings or configuration are in play (`preview`:
 * with the preview rules too).
 */
export function defaultOptions(catalog: SkillCatalog, preview = false) {
  return () => ({ options: { severities: {}, strict: false, catalog, ...(preview ? { preview } : {}) }, key: '' });
}
