import * as path from 'node:path';
import { isScalar, isSeq, type Node } from 'yaml';
import type { Span } from '../../../parse/text/lineIndex';
import {
  argumentsOf,
  childrenOf,
  innerSpan,
  isDynamic,
  literalOf,
  spanOf,
  textOf,
  type PythonSyntax,
} from '../../../parse/python/python';
import { parseSkillFile } from '../../../parse/markdown/skillFile';
import { parseYamlRegion, type YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, seqItems, valueOf } from '../../../parse/yaml/yamlNodes';
import type { FlowText } from './flow';
import { yamlText } from './readFlowYaml';

/** Keys only a tip reads: on a reference without `when` they do nothing. */
export const TIP_KEYS = ['when', 'id', 'once', 'priority', 'max_chars'];
export const RULE_KEYS = ['on_fail', 'when', 'message', 'id'];
export const ON_FAIL = ['advise', 'self-check', 'ask', 'deny', 'stop'];
export const SOFT_ON_FAIL = new Set(['advise', 'self-check']);

/** The frontmatter of a tip or `.md` rule: its keys with where they are written. */
export interface MarkdownFrontmatter {
  file: string;
  text: string;
  yaml?: YamlSyntax;
  /** Each key's name and value nodes. */
  keys: Map<string, { keySpan: Span; value: Node | null }>;
  /** The body after the frontmatter, and where it is. */
  body: string;
  bodySpan: Span;
  /** Where findings about the whole file go (the opening `---`, or the file start). */
  anchor: Span;
  problems: { message: string; span: Span }[];
}

export interface Tip {
  id: string;
  file: string;
  /** Any of these predicates (a YAML list means OR). */
  when: FlowText[];
  once: boolean;
  priority: number;
  maxChars?: number;
  body: string;
  frontmatter: MarkdownFrontmatter;
}

export interface Rule {
  id: string;
  /** Where the id is written (frontmatter `id`, the decorator's `id=`), else the file's anchor. */
  idSpan: Span;
  file: string;
  source: 'md' | 'py';
  onFail?: FlowText;
  when: FlowText[];
  message?: string;
  /** An `.md` rule's text, injected as an instruction. */
  body?: string;
  /** The decorated function (`.py`), for signature checks and hovers. */
  function?: { name: string; span: Span; params: string[] };
  /** What could not be read statically (a `.py` decorator argument that is not a literal). */
  dynamic: Span[];
  frontmatter?: MarkdownFrontmatter;
}

/** The YAML frontmatter and body of a Markdown file of the package. */
export function readMarkdownFrontmatter(file: string, text: string): MarkdownFrontmatter {
  const syntax = parseSkillFile(text);
  const keys = new Map<string, { keySpan: Span; value: Node | null }>();
  const problems: MarkdownFrontmatter['problems'] = [];
  let yaml: YamlSyntax | undefined;
  if (syntax.frontmatter) {
    yaml = parseYamlRegion(text, syntax.frontmatter.content);
    for (const problem of yaml.problems)
      problems.push({
        message: `The frontmatter is not valid YAML: ${problem.message}.`,
        span: { ...problem.span, file },
      });
    for (const entry of mapEntries(yaml.doc.contents))
      keys.set(entry.key, { keySpan: { ...nodeSpan(yaml, entry.keyNode)!, file }, value: entry.value });
  }
  const anchor = { ...(syntax.frontmatter?.open ?? { start: 0, end: 0 }), file };
  return {
    file,
    text,
    ...(yaml ? { yaml } : {}),
    keys,
    body: text.slice(syntax.body.start),
    bodySpan: { start: syntax.body.start, end: text.length, file },
    anchor,
    problems,
  };
}

/** A `when` value: one predicate string, or a YAML list of them (any may hold). */
export function whenTexts(frontmatter: MarkdownFrontmatter, node: Node | null | undefined): FlowText[] {
  if (!frontmatter.yaml || !node) return [];
  const items = isSeq(node) ? seqItems(node) : [node];
  return items.flatMap((item) => yamlText(frontmatter.yaml!, frontmatter.text, frontmatter.file, item) ?? []);
}

function scalarValue(node: Node | null | undefined): unknown {
  return isScalar(node) ? node.value : undefined;
}

/** A reference file as a tip, when its frontmatter has `when:`; undefined for an ordinary reference. */
export function readTip(frontmatter: MarkdownFrontmatter): Tip | undefined {
  const when = frontmatter.keys.get('when');
  if (!when) return undefined;
  const id = scalarValue(frontmatter.keys.get('id')?.value);
  const once = scalarValue(frontmatter.keys.get('once')?.value);
  const priority = scalarValue(frontmatter.keys.get('priority')?.value);
  const maxChars = scalarValue(frontmatter.keys.get('max_chars')?.value);
  return {
    id: typeof id === 'string' ? id : path.basename(frontmatter.file, '.md'),
    file: frontmatter.file,
    when: whenTexts(frontmatter, when.value),
    once: once !== false,
    priority: typeof priority === 'number' ? priority : 0,
    ...(typeof maxChars === 'number' ? { maxChars } : {}),
    body: frontmatter.body,
    frontmatter,
  };
}

/**
 * An `.md` rule: `on_fail`, optional `when`, `message` (default: the body's first line), `id` (default: the file stem).
 */
export function readMarkdownRule(frontmatter: MarkdownFrontmatter): Rule {
  const idEntry = frontmatter.keys.get('id');
  const id = scalarValue(idEntry?.value);
  const message = scalarValue(frontmatter.keys.get('message')?.value);
  const onFail = frontmatter.keys.get('on_fail');
  const firstLine = frontmatter.body.trim().split('\n')[0];
  return {
    id: typeof id === 'string' ? id : path.basename(frontmatter.file, '.md'),
    idSpan:
      idEntry && frontmatter.yaml
        ? { ...nodeSpan(frontmatter.yaml, idEntry.value)!, file: frontmatter.file }
        : frontmatter.anchor,
    file: frontmatter.file,
    source: 'md',
    ...(onFail && frontmatter.yaml
      ? { onFail: yamlText(frontmatter.yaml, frontmatter.text, frontmatter.file, onFail.value) }
      : {}),
    when: whenTexts(frontmatter, frontmatter.keys.get('when')?.value),
    ...(typeof message === 'string' ? { message } : firstLine ? { message: firstLine } : {}),
    body: frontmatter.body,
    dynamic: [],
    frontmatter,
  };
}

/** The `@rule(...)` functions of a `.py` rule file, read without running it. */
export function readPythonRules(py: PythonSyntax): Rule[] {
  const rules: Rule[] = [];
  for (const statement of childrenOf(py.tree.topNode)) {
    if (statement.name !== 'DecoratedStatement') continue;
    const decorator = statement.getChildren('Decorator').find((item) => {
      const name = item.getChild('VariableName');
      return name && textOf(py, name) === 'rule';
    });
    const fn = statement.getChild('FunctionDefinition');
    if (!decorator || !fn) continue;
    const args = argumentsOf(py, decorator);
    const dynamic: Span[] = [...args.spread, ...args.positional].map((node) => spanOf(py, node));
    const literal = (key: string): FlowText | undefined => {
      const entry = args.keywords.get(key);
      if (!entry) return undefined;
      const value = literalOf(py, entry.value);
      if (isDynamic(value)) {
        dynamic.push(spanOf(py, entry.value));
        return undefined;
      }
      return value.kind === 'string'
        ? { value: value.value, span: innerSpan(value), offsets: value.offsets }
        : undefined;
    };
    const id = literal('id');
    const whenEntry = args.keywords.get('when');
    const whenLiteral = whenEntry ? literalOf(py, whenEntry.value) : undefined;
    const when = whenLiteral?.kind === 'list' ? whenLiteral.items : whenLiteral ? [whenLiteral] : [];
    const nameNode = fn.getChild('VariableName')!;
    const params = childrenOf(fn.getChild('ParamList') ?? fn)
      .filter((node) => node.name === 'VariableName')
      .map((node) => textOf(py, node));
    const onFail = literal('on_fail');
    const message = literal('message');
    rules.push({
      id: id?.value ?? '',
      idSpan: id?.span ?? spanOf(py, decorator),
      file: py.file,
      source: 'py',
      ...(onFail ? { onFail } : {}),
      when: when.flatMap((item) => {
        if (isDynamic(item)) dynamic.push(item.span);
        return item.kind === 'string' ? [{ value: item.value, span: innerSpan(item), offsets: item.offsets }] : [];
      }),
      ...(message ? { message: message.value } : {}),
      function: { name: textOf(py, nameNode), span: spanOf(py, nameNode), params },
      dynamic,
    });
  }
  return rules;
}

/** The ids a `spec.md` lists: backticked ids starting bullet items under `## Stages` and `## Rules`. */
export function readSpecIds(file: string, text: string): { section: 'stages' | 'rules'; id: string; span: Span }[] {
  const ids: { section: 'stages' | 'rules'; id: string; span: Span }[] = [];
  let section: 'stages' | 'rules' | undefined;
  let start = 0;
  for (const line of text.split('\n')) {
    const heading = /^##\s+(.*?)\s*$/.exec(line);
    if (heading) section = /^stages$/i.test(heading[1]) ? 'stages' : /^rules$/i.test(heading[1]) ? 'rules' : undefined;
    const item = /^\s*[-*]\s+`([^`]+)`/.exec(line);
    if (section && item) {
      const at = start + line.indexOf('`') + 1;
      ids.push({ section, id: item[1], span: { start: at, end: at + item[1].length, file } });
    }
    start += line.length + 1;
  }
  return ids;
}

/** The value node of a frontmatter key, for the rules that check types. */
export function frontmatterValue(frontmatter: MarkdownFrontmatter, key: string): Node | null | undefined {
  return frontmatter.yaml ? valueOf(frontmatter.yaml.doc.contents, key) : undefined;
}
