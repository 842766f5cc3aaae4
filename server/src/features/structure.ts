import { FoldingRangeKind, type CodeLens, type FoldingRange, type SelectionRange } from 'vscode-languageserver-types';
import type { Node } from 'yaml';
import type { Span } from '../parse/lineIndex';
import { nodeSpan, yamlLocationAt, type YamlSyntax } from '../parse/yamlSyntax';
import { contains, rangeOf, type DocumentView } from './documentView';
import { dataEdgesOf } from './locate';

/** Folding: the frontmatter, fenced blocks, and each step. */
export function foldingRanges(view: DocumentView): FoldingRange[] {
  const { syntax, model } = view.analysis;
  const ranges: FoldingRange[] = [];
  const add = (span: Span, kind?: FoldingRangeKind) => {
    const start = view.lines.positionAt(span.start).line;
    const end = view.lines.positionAt(Math.max(span.start, span.end - 1)).line;
    if (end > start) ranges.push({ startLine: start, endLine: end, ...(kind ? { kind } : {}) });
  };
  if (syntax?.frontmatter)
    add(
      { start: syntax.frontmatter.open.start, end: (syntax.frontmatter.close ?? syntax.frontmatter.content).end },
      FoldingRangeKind.Region,
    );
  for (const fence of syntax?.fences ?? []) add({ start: fence.open.start, end: (fence.close ?? fence.content).end });
  for (const node of model.nodes) add(node.span);
  return ranges;
}

/** Selection ranges: from the YAML node under the cursor out through its parents, then the block, then the file. */
export function selectionRanges(view: DocumentView, offsets: number[]): SelectionRange[] {
  return offsets.map((offset) => {
    const spans: Span[] = [{ start: 0, end: view.analysis.source.length }];
    const { frontmatter, procedure, syntax } = view.analysis;
    const region =
      syntax?.frontmatter && frontmatter && contains(syntax.frontmatter.content, offset)
        ? { yaml: frontmatter, span: syntax.frontmatter.content }
        : procedure && contains(procedure.fence.content, offset)
          ? { yaml: procedure.yaml, span: procedure.fence.content }
          : undefined;
    if (region) {
      spans.push(region.span);
      spans.push(...chainSpans(region.yaml, offset));
    }
    let parent: SelectionRange | undefined;
    for (const span of spans) {
      if (parent && span.start === spanOf(view, parent).start && span.end === spanOf(view, parent).end) continue;
      parent = { range: rangeOf(view, span), ...(parent ? { parent } : {}) };
    }
    return parent!;
  });
}

function spanOf(view: DocumentView, range: SelectionRange): Span {
  return { start: view.lines.offsetAt(range.range.start), end: view.lines.offsetAt(range.range.end) };
}

function chainSpans(yaml: YamlSyntax, offset: number): Span[] {
  return yamlLocationAt(yaml, offset)
    .chain.map((node: Node) => nodeSpan(yaml, node))
    .filter((span): span is Span => span !== undefined);
}

/** A lens per step: how many steps consume its outputs, and its external inputs. */
export function codeLenses(view: DocumentView): CodeLens[] {
  const { model } = view.analysis;
  return model.nodes.map((node) => {
    const consumers = new Set(
      node.outputs.flatMap((port) => dataEdgesOf(view, port).consumers.map((consumer) => consumer.nodeId)),
    );
    const external = node.inputs.filter((port) => model.externalInputs.includes(port)).map((port) => port.name);
    const parts = [`${consumers.size} consumer${consumers.size === 1 ? '' : 's'}`];
    if (external.length > 0) parts.push(`external input${external.length === 1 ? '' : 's'}: ${external.join(', ')}`);
    return { range: rangeOf(view, node.nameSpan), command: { title: parts.join(' · '), command: '' } };
  });
}

/** Where the "open graph preview" lens goes: the top of a skill that has a graph. */
export function previewLensRange(view: DocumentView): CodeLens['range'] | undefined {
  return view.analysis.model.nodes.length > 0 ? frontmatterLensRange(view) : undefined;
}

/**
 * The frontmatter's first line, where the lenses about the whole skill go (Compile on any skill: a prose skill compiles
 * to AIP).
 */
export function frontmatterLensRange(view: DocumentView): CodeLens['range'] | undefined {
  const open = view.analysis.syntax?.frontmatter?.open;
  return open ? rangeOf(view, open) : undefined;
}
