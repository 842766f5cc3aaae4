import { isScalar, Pair, Scalar, YAMLMap, YAMLSeq, type Node, type Schema } from 'yaml';
import { PLAIN_START_INDICATORS, plainScalarTag, simpleQuoted } from './plainScalars';

// The reader behind readBlockYaml (blockYaml): a procedure's block YAML read line by line, indentation deciding the
// structure, into the nodes `yaml` composes; it throws GIVE_UP on anything it does not read.

/** What may start a plain scalar: not white space, not an indicator. */
const PLAIN_START = `[^\\s${PLAIN_START_INDICATORS}]`;
/** A plain scalar that stays one in a block: no indicator first (`: ` inside and a final `:` are checked apart). */
const PLAIN = new RegExp(`^${PLAIN_START}[^]*$`);
const KEY = new RegExp(`^${PLAIN_START}[^:#]*$`);
/**
 * A continuation line of a plain scalar starting with one of these may be read otherwise (an item, a key, a flow
 * collection).
 */
const INDICATOR_FIRST = /^[-?:,[\]{}#]/;
/** A key and its colon opening a map inside a sequence item (`- name: x`). */
const ITEM_KEY = new RegExp(`^${PLAIN_START}[^:]*:(?: |$)`);
export const GIVE_UP = Symbol('give up');
/** Values nested deeper than this are left to yaml (procedures nest a handful deep). */
const MAX_DEPTH = 100;

function giveUp(): never {
  throw GIVE_UP;
}

interface Line {
  start: number;
  /** Offset of the line's end (its newline, or the end of the text). */
  end: number;
  /** Columns of leading spaces; -1 for a blank line. */
  indent: number;
}

export class BlockReader {
  readonly lines: Line[] = [];
  /** The line the reader stands on: every line before it is read. */
  line = 0;
  /** Values being read, one inside the other. */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly schema: Schema,
  ) {
    for (let start = 0; start < text.length;) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      let first = start;
      while (first < end && text.charCodeAt(first) === 32) first++;
      this.lines.push({ start, end, indent: first === end ? -1 : first - start });
      start = end + 1;
    }
  }

  indentOf(line: number): number {
    return this.lines[line].indent;
  }

  /** The first line from `line` on that is not blank, or -1. */
  nextContent(line: number): number {
    for (let i = line; i < this.lines.length; i++) if (this.lines[i].indent !== -1) return i;
    return -1;
  }

  /**
   * The block collection starting at `at` on line `line` (which may be
   * inside the line, after a sequence's `- `), its entries at column `indent`.
   */
  block(line: number, indent: number, at: number): YAMLMap | YAMLSeq {
    return this.isSeqItem(at, this.lines[line].end) ? this.seq(line, indent, at) : this.map(line, indent, at);
  }

  private isSeqItem(at: number, end: number): boolean {
    return this.text.charCodeAt(at) === 45 && (at + 1 === end || this.text.charCodeAt(at + 1) === 32);
  }

  private map(line: number, indent: number, at: number): YAMLMap {
    const map = new YAMLMap(this.schema);
    const start = at;
    const keys = new Set<string>();
    let spaceBefore = false;
    for (;;) {
      const { end } = this.lines[line];
      const colon = this.text.indexOf(':', at);
      if (colon === -1 || colon >= end || (colon + 1 < end && this.text.charCodeAt(colon + 1) !== 32)) giveUp();
      const keyText = this.text.slice(at, colon);
      // `<<` is a merge key in YAML 1.1, which `yaml` reads apart.
      if (!KEY.test(keyText) || keyText.endsWith(' ') || keyText === '<<' || keys.has(keyText)) giveUp();
      keys.add(keyText);
      const key = this.scalar(keyText, at, colon, colon, 'PLAIN', true);
      if (spaceBefore) key.spaceBefore = true;
      map.items.push(new Pair(key, this.value(line, indent, colon + 1, false)));
      const next = this.nextContent(this.line);
      if (next === -1 || this.indentOf(next) < indent) break;
      if (this.indentOf(next) > indent || this.isSeqItem(this.lines[next].start + indent, this.lines[next].end))
        giveUp();
      spaceBefore = next > this.line;
      line = next;
      at = this.lines[next].start + indent;
    }
    const end = this.lastEnd(map);
    map.range = [start, end, end];
    return map;
  }

  private seq(line: number, indent: number, at: number): YAMLSeq {
    const seq = new YAMLSeq(this.schema);
    const firstDash = at;
    let spaceBefore = false;
    for (;;) {
      const item = this.value(line, indent, at + 1, true);
      if (spaceBefore) item.spaceBefore = true;
      seq.items.push(item);
      const next = this.nextContent(this.line);
      if (next === -1 || this.indentOf(next) < indent) break;
      const nextAt = this.lines[next].start + indent;
      // A key at the sequence's own column ends it (the sequence is that key's sibling's value).
      if (this.indentOf(next) > indent || !this.isSeqItem(nextAt, this.lines[next].end)) {
        if (this.indentOf(next) === indent) break;
        giveUp();
      }
      spaceBefore = next > this.line;
      line = next;
      at = nextAt;
    }
    const end = this.lastEnd(seq);
    seq.range = [firstDash, end, end];
    return seq;
  }

  /**
   * The value after a key's colon or a sequence's dash at `after` on `line`,
   * the entry being at column `indent`; moves the reader past it.
   */
  private value(line: number, indent: number, after: number, inSeq: boolean): Node {
    // Nesting deeper than any procedure's is left to yaml, which reports running out of stack as its own error.
    if (++this.depth > MAX_DEPTH) giveUp();
    const node = this.valueAt(line, indent, after, inSeq);
    this.depth--;
    return node;
  }

  private valueAt(line: number, indent: number, after: number, inSeq: boolean): Node {
    const { end } = this.lines[line];
    if (after === end) {
      // Nothing on the line: the value is the block below, indented further (or, for a key, a sequence at the key's
      // column).
      this.line = line + 1;
      const next = this.nextContent(this.line);
      if (next === -1) giveUp();
      const nextIndent = this.indentOf(next);
      const nextAt = this.lines[next].start + nextIndent;
      let block: YAMLMap | YAMLSeq;
      if (nextIndent > indent) block = this.block(next, nextIndent, nextAt);
      else if (!inSeq && nextIndent === indent && this.isSeqItem(nextAt, this.lines[next].end))
        block = this.seq(next, indent, nextAt);
      else return giveUp();
      // Blank lines between the key (or dash) and its block mark the block, as they mark an entry.
      if (next > line + 1) block.spaceBefore = true;
      return block;
    }
    if (this.text.charCodeAt(after) !== 32 || this.text.charCodeAt(after + 1) === 32) giveUp();
    const start = after + 1;
    const first = this.text.charCodeAt(start);
    if (inSeq && this.isSeqItem(start, end)) giveUp();
    if (first === 62 || first === 124) return this.blockScalar(line, indent, start, first === 62);
    this.line = line + 1;
    const raw = this.text.slice(start, end);
    if (raw.endsWith(' ')) giveUp();
    if (first === 91) return this.flowSeq(raw, start, end);
    if (first === 34 || first === 39) {
      const inner = simpleQuoted(raw) ?? giveUp();
      return this.scalar(inner, start, end, this.lineEnd(end), first === 34 ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', false);
    }
    // A key inside a sequence item opens a map there, its keys at the column after the dash.
    if (inSeq && ITEM_KEY.test(raw)) {
      this.line = line;
      return this.map(line, start - this.lines[line].start, start);
    }
    if (!PLAIN.test(raw) || raw.includes(': ') || raw.includes(' #') || raw.endsWith(':')) giveUp();
    return this.plainLines(raw, indent, start, end);
  }

  /**
   * A plain scalar from `raw` (its first line, ending at `end`) and the
   * lines below indented beyond its entry, folded as YAML folds them: a
   * line break becomes a space, each blank line between two lines a newline.
   */
  private plainLines(raw: string, indent: number, start: number, end: number): Scalar {
    let value = raw;
    let valueEnd = end;
    let breaks = 0;
    for (let i = this.line; i < this.lines.length; i++) {
      const current = this.lines[i];
      if (current.indent === -1) {
        breaks++;
        continue;
      }
      if (current.indent <= indent) break;
      const text = this.text.slice(current.start + current.indent, current.end);
      if (
        INDICATOR_FIRST.test(text) ||
        text.includes(': ') ||
        text.includes(' #') ||
        text.endsWith(':') ||
        text.endsWith(' ')
      )
        giveUp();
      value += breaks > 0 ? '\n'.repeat(breaks) + text : ' ' + text;
      breaks = 0;
      valueEnd = current.end;
      this.line = i + 1;
    }
    return this.scalar(value, start, valueEnd, this.lineEnd(valueEnd), 'PLAIN', false);
  }

  private blockScalar(line: number, indent: number, start: number, folded: boolean): Scalar {
    const { end } = this.lines[line];
    const header = this.text.slice(start, end);
    if (header.length > 2 || (header.length === 2 && header[1] !== '-')) giveUp();
    const strip = header.length === 2;
    const first = line + 1;
    if (first >= this.lines.length || this.indentOf(first) <= indent) giveUp();
    const contentIndent = this.indentOf(first);
    const parts: string[] = [];
    let last = first;
    for (let i = first; i < this.lines.length; i++) {
      const current = this.lines[i];
      if (current.indent === -1) {
        // Spaces beyond the indentation on a blank line are text of the scalar: left to yaml.
        if (current.end - current.start > contentIndent) giveUp();
        parts.push('');
        continue;
      }
      if (current.indent < contentIndent) {
        if (current.indent > indent) giveUp();
        break;
      }
      parts.push(this.text.slice(current.start + contentIndent, current.end));
      last = i;
    }
    const content = parts.slice(0, last - first + 1);
    let value = folded ? foldLines(content) : content.join('\n');
    if (!strip) value += '\n';
    this.line = last + 1;
    const valueEnd = this.lineEnd(this.lines[last].end);
    return this.scalar(value, start, valueEnd, valueEnd, folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL', false);
  }

  private flowSeq(raw: string, start: number, end: number): YAMLSeq {
    const inner = raw.slice(1, -1);
    if (raw[raw.length - 1] !== ']' || inner.includes('[') || inner.includes(']')) giveUp();
    const seq = new YAMLSeq(this.schema);
    seq.flow = true;
    if (inner.length > 0) {
      let at = start + 1;
      for (const item of inner.split(', ')) {
        if (!PLAIN.test(item) || /[:,{}#]/.test(item) || item.endsWith(' ')) giveUp();
        seq.items.push(this.scalar(item, at, at + item.length, at + item.length, 'PLAIN', false));
        at += item.length + 2;
      }
    }
    seq.range = [start, end, this.lineEnd(end)];
    return seq;
  }

  /** A scalar node as `yaml` composes it; a plain one is typed by the schema's tags (a key must stay a string). */
  private scalar(
    source: string,
    start: number,
    valueEnd: number,
    end: number,
    type: Scalar.Type,
    atKey: boolean,
  ): Scalar {
    let node: Scalar;
    if (type === 'PLAIN') {
      const tag = plainScalarTag(this.schema, source, atKey);
      if (tag) {
        if (atKey) giveUp();
        const value = tag.resolve(source, giveUp, {});
        node = isScalar(value) ? value : new Scalar(value);
        if (tag.format) node.format = tag.format;
      } else node = new Scalar(source);
    } else node = new Scalar(source);
    node.range = [start, valueEnd, end];
    node.source = source;
    node.type = type;
    return node;
  }

  /** After the newline ending a line at `end`, when there is one. */
  private lineEnd(end: number): number {
    return end < this.text.length ? end + 1 : end;
  }

  private lastEnd(collection: YAMLMap | YAMLSeq): number {
    const last = collection.items[collection.items.length - 1] as Pair<Scalar, Node> | Node;
    return (last instanceof Pair ? (last.value as Node) : last).range![2];
  }
}

/**
 * Folded block lines as YAML folds them: between two lines of text a line
 * break becomes a space, or, with blank lines between, each blank line one
 * newline; next to a more-indented line (one starting with a space) every
 * line break is kept.
 */
function foldLines(lines: string[]): string {
  let value = '';
  let breaks = 0;
  let previousIndented = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '') {
      breaks++;
      continue;
    }
    const indented = lines[i].charCodeAt(0) === 32;
    if (i > 0) value += indented || previousIndented ? '\n'.repeat(breaks + 1) : breaks > 0 ? '\n'.repeat(breaks) : ' ';
    breaks = 0;
    previousIndented = indented;
    value += lines[i];
  }
  return value;
}
