// Texts of a given kind and size assembled from the shared corpus's real skills (../shared/corpus: copying from there
// is allowed) and generated lines between them, so each file written is its own text while reading like the files of
// real skills: prose with fenced commands and tables, Python and shell scripts with ordinary calls, data files that
// parse. Pieces are whole: a Markdown section (cut at headings outside fences) or a top-level block of code (cut at
// an unindented line after a blank one), so no fence is left open and no function is cut in two.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AssetKind, FileKind } from './realShape';

type PoolKind = 'markdown' | 'python' | 'shell' | 'script' | 'yaml' | 'prose';

const VERBS = ['Check', 'Load', 'Compare', 'Render', 'Export', 'Validate', 'Summarise', 'Review', 'Merge', 'Trace'];
const NOUNS = ['the layout', 'each record', 'the template', 'the config', 'the report', 'the schema', 'a draft'];
const ENDS = ['before you continue.', 'and note what changed.', 'when the user asks for it.', 'for every input.'];

/** Every file under `dir`, as paths. */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : entry.isFile() ? [full] : [];
  });
}

/** Markdown cut before each heading outside a fence. */
function markdownSections(text: string): string[] {
  const sections: string[] = [];
  let current: string[] = [];
  // The fence open, if any: a fence closes on a line of its own character at least as long (CommonMark).
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (marker && fence === undefined) fence = marker[1];
    else if (marker && marker[1][0] === fence?.[0] && marker[1].length >= fence.length && !marker[2].trim())
      fence = undefined;
    const fenced = fence !== undefined;
    if (!fenced && /^#{1,6} /.test(line) && current.length > 0) sections.push(current.join('\n') + '\n');
    if (!fenced && /^#{1,6} /.test(line)) current = [];
    current.push(line);
  }
  // A file whose last fence is left open upstream gives no last section.
  if (fence === undefined && current.length > 0) sections.push(current.join('\n') + '\n');
  return sections;
}

/** Code cut before each unindented line that follows a blank one. */
function codeBlocks(text: string): string[] {
  return text
    .split(/\n\s*\n(?=\S)/)
    .filter((block) => block.trim() !== '')
    .map((block) => block + '\n\n');
}

const withoutFrontmatter = (text: string) => text.replace(/^---\n[\s\S]*?\n---\n/, '');
const frontmatter = (text: string) => /^---\n([\s\S]*?\n)---\n/.exec(text)?.[1];

/** The shared corpus cut into pieces, by the kind of file they make up. */
export class CorpusPieces {
  private readonly pools = new Map<PoolKind, string[]>();

  constructor(corpus: string) {
    const add = (kind: PoolKind, pieces: string[]) =>
      this.pools.set(kind, [...(this.pools.get(kind) ?? []), ...pieces]);
    for (const file of walk(corpus).sort()) {
      const text = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
      const name = path.basename(file);
      if (name.endsWith('.md')) {
        const sections = markdownSections(withoutFrontmatter(text));
        add('markdown', sections);
        add('prose', sections.flatMap((section) => section.split('\n').filter((line) => /^[A-Z][^|`]{30,}$/.test(line)))); // prettier-ignore
        const yaml = frontmatter(text);
        if (yaml) add('yaml', [yaml]);
      } else if (name.endsWith('.py')) add('python', codeBlocks(text));
      else if (name.endsWith('.sh') || (!name.includes('.') && file.includes('/scripts/')))
        add('shell', codeBlocks(text));
      else if (/\.(ts|js|mjs|cjs)$/.test(name)) add('script', codeBlocks(text));
      else if (/\.ya?ml$/.test(name)) add('yaml', [text]);
    }
  }

  /** A text of about `bytes` bytes (never more, but for its first line) of `kind`, told apart by `label`. */
  text(next: () => number, kind: FileKind, bytes: number, label: string): string {
    switch (kind) {
      case 'reference':
      case 'markdown':
        return this.fill(next, 'markdown', `# ${this.sentence(next)} (${label})\n\n`, bytes, () => this.prose(next));
      case 'python':
        return this.fill(next, 'python', `"""${label}: ${this.sentence(next)}"""\n\n`, bytes, (n) => `# ${n}\n\n`);
      case 'shell':
        return this.fill(next, 'shell', `#!/usr/bin/env bash\n# ${label}\nset -euo pipefail\n\n`, bytes, (n) => `# ${n}\n\n`); // prettier-ignore
      case 'typescript':
      case 'javascript':
        return this.fill(next, 'script', `// ${label}: ${this.sentence(next)}\n\n`, bytes, (n) => `// ${n}\n\n`);
      case 'json':
        return JSON.stringify({ name: label, cases: this.records(next, bytes) }, null, 2) + '\n';
      case 'yaml':
        // Documents of their own: two frontmatters in one mapping would repeat their keys.
        return this.fill(next, 'yaml', `# ${label}\n`, bytes, (n) => `---\n# ${n}\n`);
    }
  }

  /** An asset: a table, a diagram, or bytes that are no text (an image). */
  asset(next: () => number, kind: AssetKind, bytes: number): Buffer {
    if (kind === 'png') return Buffer.from(Array.from({ length: bytes }, (_, i) => (i < 8 ? [137, 80, 78, 71, 13, 10, 26, 10][i] : Math.floor(next() * 256)))); // prettier-ignore
    const lines: string[] = [kind === 'tsv' ? 'id\tname\tnote' : 'flowchart TD'];
    for (let n = 0; lines.join('\n').length < bytes; n++)
      lines.push(kind === 'tsv' ? `${n}\t${this.pickOf(NOUNS, next)}\t${this.sentence(next)}` : `  n${n} --> n${n + 1}[${this.pickOf(VERBS, next)}]`); // prettier-ignore
    return Buffer.from(lines.join('\n') + '\n');
  }

  private pickOf<T>(list: readonly T[], next: () => number): T {
    return list[Math.floor(next() * list.length)];
  }

  private sentence(next: () => number): string {
    return `${this.pickOf(VERBS, next)} ${this.pickOf(NOUNS, next)} ${this.pickOf(ENDS, next)}`;
  }

  /** A generated paragraph, now and then a table or a list, between the corpus's sections. */
  private prose(next: () => number): string {
    const roll = next();
    if (roll < 0.2)
      return `| step | what | note |\n|---|---|---|\n${[1, 2, 3].map((n) => `| ${n} | ${this.sentence(next)} | ${this.pickOf(NOUNS, next)} |`).join('\n')}\n\n`; // prettier-ignore
    if (roll < 0.4) return [1, 2, 3].map(() => `- ${this.sentence(next)}`).join('\n') + '\n\n';
    return `${this.sentence(next)} ${this.pickOf(this.pools.get('prose')!, next)}\n\n`;
  }

  /**
   * `head`, then pieces of `pool` with a generated separator before each, as long as they fit in `bytes`; a piece too
   * large is passed over (a few tries), and what is left is made of separators alone.
   */
  private fill(next: () => number, pool: PoolKind, head: string, bytes: number, between: (n: number) => string) {
    const pieces = this.pools.get(pool)!;
    const parts = [head];
    let length = head.length;
    for (let n = 0, misses = 0; length < bytes && misses < 8; n++) {
      const piece = between(n) + this.pickOf(pieces, next);
      if (length + piece.length > bytes) {
        misses++;
        continue;
      }
      parts.push(piece);
      length += piece.length;
    }
    for (let n = 0; length < bytes; n++) {
      const line = pool === 'markdown' ? this.prose(next) : between(n);
      if (length + line.length > bytes) break;
      parts.push(line);
      length += line.length;
    }
    return parts.join('');
  }

  /** Records of an evaluation set, each a prompt and an expectation in the corpus's prose, about `bytes` long. */
  private records(next: () => number, bytes: number) {
    const records: { id: string; prompt: string; expected: string }[] = [];
    for (let length = 0; length < bytes;) {
      const record = { id: `case-${records.length}`, prompt: this.prose(next).trim(), expected: this.sentence(next) };
      length += JSON.stringify(record).length + 8;
      records.push(record);
    }
    return records;
  }
}
