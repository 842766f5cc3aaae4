import type { FormatId } from '../model/skillModel';
import { fenceLanguage, type SkillFileSyntax } from '../parse/markdown/skillFile';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Detection {
  format: FormatId;
  /** An AIP procedure body without AIP metadata: analysed as AIP 0.3, with a quick fix to add the metadata. */
  aipLike: boolean;
}

/** Procedure keys that make a lone YAML block look like AIP. */
const AIP_BODY = /^(?:purpose|trigger_when|steps)\s*:/m;

/** Recognises the format from the frontmatter markers of `formats/README.md`. */
export function detectFormat(frontmatter: Record<string, unknown> | undefined, syntax: SkillFileSyntax): Detection {
  const metadata = isPlainObject(frontmatter?.metadata) ? frontmatter.metadata : {};
  // Any `metadata.aip` marks AIP 0.3; a malformed one is reported by the AIP metadata rules.
  if ('aip' in metadata) return { format: 'aip-0.3', aipLike: false };
  if ('aip-version' in metadata) return { format: 'aip-0.5', aipLike: false };
  if (frontmatter?.kind === 'meta') return { format: 'metaskill', aipLike: false };
  if (frontmatter?.kind === 'meta_sop') return { format: 'metaskill-sop', aipLike: false };
  if ('skillplus-version' in metadata) return { format: 'skillplus', aipLike: false };
  const yamlFences = syntax.fences.filter((fence) => ['yaml', 'yml'].includes(fenceLanguage(fence)));
  if (syntax.fences.length === 1 && yamlFences.length === 1) {
    const fence = yamlFences[0];
    const before = syntax.text.slice(syntax.body.start, fence.open.start).trim();
    const content = syntax.text.slice(fence.content.start, fence.content.end);
    if (before === '' && AIP_BODY.test(content) && /^steps\s*:/m.test(content))
      return { format: 'aip-0.3', aipLike: true };
  }
  return { format: 'agent-skill', aipLike: false };
}
