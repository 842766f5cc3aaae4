import { FoldingRangeKind, type FoldingRange, type SelectionRange } from 'vscode-languageserver-types';
import type { Node } from 'yaml';
import type { Span } from '../parse/text/lineIndex';
import type { YamlSyntax } from '../parse/yaml/yamlSyntax';
import { nodeSpan, yamlLocationAt } from '../parse/yaml/yamlNodes';
import { contains, rangeOf, type DocumentView } from '../analysis/documentView';
import { dataEdgesOf } from './locate';
import { formatOf } from '../formats';
import type { SkillLens } from '../analysis/target';

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
    const { frontmatter, syntax } = view.analysis;
    const block = formatOf(view.analysis).block?.(view.analysis);
    const region =
      syntax?.frontmatter && frontmatter && contains(syntax.frontmatter.content, offset)
        ? { yaml: frontmatter, span: syntax.frontmatter.content }
        : block && contains(block.fence.content, offset)
          ? { yaml: block.yaml, span: block.fence.content }
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

/**
 * The lenses of a SKILL.md: "Open graph preview" at the top of a skill that has a graph, "Compile…" on any skill's
 * frontmatter (a prose skill compiles to AIP), and on each step how many steps consume its outputs and its external
 * inputs.
 */
export function skillFileLenses(view: DocumentView): SkillLens[] {
  const { model, syntax } = view.analysis;
  const top = syntax?.frontmatter?.open ? rangeOf(view, syntax.frontmatter.open) : undefined;
  const lenses: SkillLens[] = [];
  if (top && model.nodes.length > 0) lenses.push({ range: top, title: 'Open graph preview', action: 'openPreview' });
  if (top) lenses.push({ range: top, title: 'Compile…', action: 'compile' });
  // Steps written in the package's other files (skill+'s flow) have their lenses there.
  for (const node of formatOf(view.analysis).features?.packageFiles ? [] : model.nodes) {
    const consumers = new Set(
      node.outputs.flatMap((port) => dataEdgesOf(view, port).consumers.map((consumer) => consumer.nodeId)),
    );
    const external = node.inputs.filter((port) => model.externalInputs.includes(port)).map((port) => port.name);
    const parts = [`${consumers.size} consumer${consumers.size === 1 ? '' : 's'}`];
    if (external.length > 0) parts.push(`external input${external.length === 1 ? '' : 's'}: ${external.join(', ')}`);
    lenses.push({ range: rangeOf(view, node.nameSpan), title: parts.join(' · '), action: 'showReferences' });
  }
  return lenses;
}
