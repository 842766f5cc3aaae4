import { formatOf } from '../formats';
import type { FileLink, Port } from '../model/skillModel';
import { findPathMentions, findSkillDirMentions, regionsOutside } from '../parse/markdown/pathMentions';
import { nodeSpan, yamlLocationAt } from '../parse/yaml/yamlNodes';
import { contains, type DocumentView } from '../analysis/documentView';
import type { Target } from '../analysis/target';

/** Finds the model element at an offset: ports and references first, then links, then YAML keys. */
export function locate(view: DocumentView, offset: number): Target {
  const { model } = view.analysis;
  for (const node of model.nodes) {
    if (!contains(node.span, offset) && !contains(node.nameSpan, offset)) continue;
    if (contains(node.nameSpan, offset) && node.nameSpan.end > node.nameSpan.start) return { kind: 'step', node };
    for (const port of [...node.inputs, ...node.outputs]) {
      if (contains(port.nameSpan, offset) || (port.typeSpan && contains(port.typeSpan, offset)))
        return { kind: 'port', node, port };
    }
    const ref = node.controlRefs.find((candidate) => contains(candidate.span, offset));
    if (ref) return { kind: 'controlRef', node, ref };
    const link = [...(node.script ? [node.script] : []), ...node.links].find((candidate) =>
      contains(candidate.span, offset),
    );
    if (link) return { kind: 'link', node, link };
    const skill = node.skillRefs?.find((candidate) => contains(candidate.span, offset));
    if (skill) return { kind: 'skillRef', node, ref: skill };
    const input = model.externalInputs.find((port) => port.nodeId === node.id && contains(port.nameSpan, offset));
    if (input) return { kind: 'port', node, port: input };
    const own = formatOf(view.analysis).features?.locateInStep?.(view, node, offset);
    if (own) return own;
  }
  // References made by the skill as a whole (`final_text_mode: step:x`).
  const wholeSkillRef = model.refs?.find((candidate) => contains(candidate.span, offset));
  if (wholeSkillRef && model.nodes.length > 0)
    return {
      kind: 'controlRef',
      node: model.nodes.find((node) => node.id === wholeSkillRef.target) ?? model.nodes[0],
      ref: wholeSkillRef,
    };
  const mention = proseMentions(view).find((candidate) => contains(candidate.span, offset));
  if (mention) return { kind: 'link', link: mention };
  return keyAt(view, offset);
}

/** Paths named in prose: the body outside fences, or the regions the format says (an AIP procedure block's text). */
export function proseMentions(view: DocumentView): FileLink[] {
  const { syntax } = view.analysis;
  if (!syntax) return [];
  const own = formatOf(view.analysis).features?.proseRegions?.(view.analysis);
  return [
    ...findPathMentions(view.analysis.text, own ?? regionsOutside(syntax.body, syntax.fences)),
    ...(own ? [] : findSkillDirMentions(view.analysis.text, syntax.body)),
  ].map((mention) => ({
    path: mention.path,
    span: mention.span,
    role: 'prose' as const,
  }));
}

function keyAt(view: DocumentView, offset: number): Target {
  const { frontmatter, syntax } = view.analysis;
  const block = formatOf(view.analysis).block?.(view.analysis);
  const region =
    frontmatter && syntax?.frontmatter && contains(syntax.frontmatter.content, offset)
      ? { yaml: frontmatter, name: 'frontmatter' as const }
      : block && contains(block.fence.content, offset)
        ? { yaml: block.yaml, name: 'procedure' as const }
        : undefined;
  if (!region) return { kind: 'none' };
  const location = yamlLocationAt(region.yaml, offset);
  const span = location.onKey ? nodeSpan(region.yaml, location.node) : undefined;
  if (!span) return { kind: 'none' };
  return { kind: 'key', region: region.name, location, span };
}

/** The data edges whose consumer is `port`, and those whose producer is it. */
export function dataEdgesOf(view: DocumentView, port: Port) {
  const edges = view.analysis.model.edges.filter((edge) => edge.kind === 'data');
  return {
    producers: edges.filter((edge) => edge.consumer === port && edge.producer).map((edge) => edge.producer!),
    consumers: edges.filter((edge) => edge.producer === port).map((edge) => edge.consumer!),
  };
}
