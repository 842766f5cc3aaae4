import * as path from 'node:path';
import { visit, type Scalar } from 'yaml';
import { sourceOf, type AnalysisBase } from '../analysis/skillAnalysis';
import { formatOf } from '../formats';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { lineEndAt } from '../parse/text/lineIndex';
import { parseYamlRegion, type YamlSyntax } from '../parse/yaml/yamlSyntax';
import { nodeSpan } from '../parse/yaml/yamlNodes';
import { textChange, type TextChange } from '../checks/engine/fix';
import { scriptLanguage } from '../platforms/shells';

/**
 * The comment that silences `item` where it is, in the language of the
 * place: `<!-- skillgraph-disable-next-line CODE -->` above a Markdown line,
 * `# skillgraph-disable-line CODE` at the end of a YAML or Python line (a
 * code added to one already there). Undefined where no comment can go
 * without changing the text's meaning: inside a fenced example, a string or
 * a block scalar, or on the frontmatter's first line.
 */
export function suppressionEdit(analysis: AnalysisBase, item: Diagnostic): TextChange | undefined {
  const text = sourceOf(analysis, item.file);
  const offset = Math.min(item.span.start, text.length);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = lineEndAt(text, offset);
  const line = text.slice(lineStart, lineEnd);
  const language = languageAt(analysis, item.file, offset);
  if (language === 'markdown') {
    const previousStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const previous = lineStart > 0 ? text.slice(previousStart, lineEndAt(text, previousStart)) : '';
    const existing = /<!--[ \t]*skillgraph-disable-next-line\b([^\n]*?)[ \t]*-->/.exec(previous);
    // A comment on the line above that names codes (and gives no reason) takes this one too.
    if (existing && existing[1].trim() !== '' && !existing[1].includes(' -- ')) {
      const at = previousStart + existing.index + existing[0].indexOf('line') + 'line'.length + existing[1].length;
      return textChange(item.file, at, at, `, ${item.code}`);
    }
    const indent = /^[ \t]*/.exec(line)![0];
    return textChange(item.file, lineStart, lineStart, `${indent}<!-- skillgraph-disable-next-line ${item.code} -->\n`);
  }
  if (language === undefined) return undefined;
  const end = lineStart + line.trimEnd().length;
  const existing = /#[ \t]*skillgraph-disable-line\b([^\n]*)$/.exec(line);
  if (existing && existing[1].trim() !== '' && !existing[1].includes(' -- '))
    return textChange(item.file, end, end, `, ${item.code}`);
  return textChange(item.file, end, end, `  # skillgraph-disable-line ${item.code}`);
}

/**
 * The language of the line holding `offset` in `file`, for a suppression
 * comment: undefined where a comment would be part of the text.
 */
function languageAt(analysis: AnalysisBase, file: string, offset: number): 'markdown' | 'line' | undefined {
  const text = sourceOf(analysis, file);
  const lineEnd = lineEndAt(text, offset);
  if (scriptLanguage(file) === 'python') {
    const python = formatOf(analysis).python?.(analysis, file);
    if (!python) return undefined;
    for (
      let node: ReturnType<typeof python.tree.resolveInner> | null = python.tree.resolveInner(lineEnd, -1);
      node;
      node = node.parent
    )
      if (/String/.test(node.name) && node.from < lineEnd && node.to > lineEnd) return undefined;
    return text.slice(0, lineEnd).endsWith('\\') ? undefined : 'line';
  }
  if (/\.ya?ml$/.test(file)) return yamlLineOpen(parseYamlRegion(text, { start: 0, end: text.length }), text, lineEnd);
  if (file !== analysis.file) return path.extname(file) === '.md' && !inFence(text, offset) ? 'markdown' : undefined;
  const syntax = analysis.syntax;
  if (!syntax) return undefined;
  const frontmatter = syntax.frontmatter;
  if (frontmatter && offset < frontmatter.content.start) return undefined;
  if (frontmatter && offset <= frontmatter.content.end)
    return analysis.frontmatter ? yamlLineOpen(analysis.frontmatter, text, lineEnd) : undefined;
  const fence = syntax.fences.find(
    (candidate) => candidate.open.start <= offset && offset <= (candidate.close?.end ?? text.length),
  );
  if (!fence) return 'markdown';
  // The format's own YAML block (an AIP procedure) takes a YAML comment; any other fenced example is left as written.
  const block = formatOf(analysis).block?.(analysis);
  return block?.fence.open.start === fence.open.start ? yamlLineOpen(block.yaml, text, lineEnd) : undefined;
}

/**
 * Whether a YAML comment may follow at `lineEnd` of `text`: no scalar runs on past it, except a block scalar whose
 * header (`|`, `>-`) is on this line.
 */
function yamlLineOpen(yaml: YamlSyntax, text: string, lineEnd: number): 'line' | undefined {
  let open = true;
  visit(yaml.doc, {
    Scalar(_key, node: Scalar) {
      const span = nodeSpan(yaml, node);
      if (!span || !(span.start < lineEnd && lineEnd < span.end)) return;
      const block = node.type === 'BLOCK_FOLDED' || node.type === 'BLOCK_LITERAL';
      if (!block || text.slice(span.start, lineEnd).includes('\n')) open = false;
    },
  });
  return open ? 'line' : undefined;
}

/** Whether `offset` of a Markdown file lies in a fenced block (counted from the fence markers before it). */
function inFence(text: string, offset: number): boolean {
  let open: string | undefined;
  for (const match of text.slice(0, offset).matchAll(/^ {0,3}(`{3,}|~{3,})/gm)) {
    if (!open) open = match[1];
    else if (match[1][0] === open[0] && match[1].length >= open.length) open = undefined;
  }
  return open !== undefined;
}
