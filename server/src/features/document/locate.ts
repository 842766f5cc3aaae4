import { templateSpan } from '../../formats/metaskill';
import type { ControlRef, FileLink, GraphNode, Port, SkillRef } from '../../model/skillModel';
import { findPathMentions, findSkillDirMentions, regionsOutside } from '../../parse/pathMentions';
import type { Span } from '../../parse/lineIndex';
import { nodeSpan, yamlLocationAt, type YamlLocation } from '../../parse/yamlSyntax';
import { contains, type DocumentView } from './documentView';

/** What the cursor is on, in model terms. Features switch on this, never on raw text. */
export type Target =
  | { kind: 'port'; node: GraphNode; port: Port }
  | { kind: 'step'; node: GraphNode }
  | { kind: 'controlRef'; node: GraphNode; ref: ControlRef }
  | { kind: 'link'; node?: GraphNode; link: FileLink }
  | { kind: 'skillRef'; node: GraphNode; ref: SkillRef }
  | { kind: 'filter'; node: GraphNode; name: string; span: Span }
  | { kind: 'key'; region: 'frontmatter' | 'procedure'; location: YamlLocation; span: Span }
  | { kind: 'none' };

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
    const filter = filterAt(view, node, offset);
    if (filter) return filter;
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

/** A MetaSkill template filter under the cursor, in the templates of `node`'s step. */
function filterAt(view: DocumentView, node: GraphNode, offset: number): Target | undefined {
  const step = view.analysis.metaPlan?.steps.find(
    (candidate) => candidate.id === node.id && candidate.span === node.span,
  );
  for (const template of step?.templates ?? []) {
    for (const filter of template.read.filters) {
      const span = templateSpan(template, filter.start, filter.end);
      if (contains(span, offset)) return { kind: 'filter', node, name: filter.name, span };
    }
  }
  return undefined;
}

/** Paths named in prose: the body outside fences, and the procedure block's text. */
export function proseMentions(view: DocumentView): FileLink[] {
  const { syntax, procedure } = view.analysis;
  if (!syntax) return [];
  const regions = procedure ? [procedure.fence.content] : regionsOutside(syntax.body, syntax.fences);
  return [
    ...findPathMentions(view.analysis.text, regions),
    ...(procedure ? [] : findSkillDirMentions(view.analysis.text, syntax.body)),
  ].map((mention) => ({
    path: mention.path,
    span: mention.span,
    role: 'prose' as const,
  }));
}

function keyAt(view: DocumentView, offset: number): Target {
  const { frontmatter, procedure, syntax } = view.analysis;
  const region =
    frontmatter && syntax?.frontmatter && contains(syntax.frontmatter.content, offset)
      ? { yaml: frontmatter, name: 'frontmatter' as const }
      : procedure && contains(procedure.fence.content, offset)
        ? { yaml: procedure.yaml, name: 'procedure' as const }
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
