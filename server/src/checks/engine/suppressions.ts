import { LineIndex, lineEndAt, type Span } from '../../parse/text/lineIndex';
import { flatText, type TextLike } from '../../parse/text/textLike';
import { diagnostic, type Diagnostic } from './diagnostic';
import { closestName } from '../match/nameDistance';
import { defineRule } from './rule';
import { fixOf, textChange, type Fix, type FixSource, type TextChange } from './fix';
import { suggestionFix } from './suggestionFix';

// Comments that silence findings where the author decided they are wrong, in the file they are in:
//   <!-- skillgraph-disable-next-line CODE -->        Markdown: the line below
//   <!-- skillgraph-disable CODE --> … <!-- skillgraph-enable CODE -->   Markdown: the lines between
//   # skillgraph-disable-line CODE                     YAML and Python: this line (-next-line: the line below)
// Several codes may follow, separated by commas or spaces; none means every code. A reason may follow ` -- `.

export const unusedSuppression = defineRule({
  code: 'unused_suppression',
  category: 'config',
  severity: 'warning',
  summary: 'A skillgraph-disable comment that suppresses no finding.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: removeSuppressionFix,
});

const DIRECTIVE = /(?:<!--|#)[ \t]*skillgraph-(disable-next-line|disable-line|disable|enable)\b([^\n]*?)(?:-->|$)/gm;
const CODE = /[a-z][a-z0-9_]*/g;

interface Suppression {
  file: string;
  /** The comment, where an unused suppression is reported. */
  span: Span;
  /** The codes it names, each with where it is written; empty: every code. */
  codes: { code: string; span: Span }[];
  /** How many codes the comment names (a `disable` comment makes one region per code). */
  written: number;
  /** The lines it covers (0-based, inclusive). */
  from: number;
  to: number;
  used: Set<string>;
}

/** The suppressions written in `text`, the file `file`. */
function suppressionsIn(file: string, text: string): Suppression[] {
  const lines = new LineIndex(text);
  const found: Suppression[] = [];
  const open = new Map<string, Suppression>();
  for (const match of text.matchAll(DIRECTIVE)) {
    const [whole, kind, rest] = match;
    const at = match.index!;
    const line = lines.positionAt(at).line;
    // The codes follow the directive's name; a reason may follow them after ` -- `.
    const restAt = at + whole.indexOf(kind) + kind.length;
    const codes = [...rest.split(/\s--\s/)[0].matchAll(CODE)].map((code) => ({
      code: code[0],
      span: { start: restAt + code.index!, end: restAt + code.index! + code[0].length, file },
    }));
    // A CRLF file's line break is not part of the comment.
    const span = { start: at, end: at + whole.replace(/\r$/, '').length, file };
    if (kind === 'enable') {
      for (const code of codes.length > 0 ? codes.map((item) => item.code) : [...open.keys()]) {
        const region = open.get(code);
        if (region) region.to = line;
        open.delete(code);
      }
    } else if (kind === 'disable') {
      // One region per code, so that `enable CODE` ends that code's region only.
      for (const code of codes.length > 0 ? codes : [undefined]) {
        const region: Suppression = {
          file,
          span,
          codes: code ? [code] : [],
          written: codes.length,
          from: line,
          to: Number.MAX_SAFE_INTEGER,
          used: new Set(),
        };
        open.set(code?.code ?? '*', region);
        found.push(region);
      }
    } else {
      const target = kind === 'disable-next-line' ? line + 1 : line;
      found.push({ file, span, codes, written: codes.length, from: target, to: target, used: new Set() });
    }
  }
  return found;
}

/**
 * Which suppressions a pass over findings judges: findings made in two passes (a skill's analysis, then the library's
 * checks) are each silenced by the comments naming their codes, and a comment is unused only if the pass that makes
 * its code's findings says so.
 */
export interface SuppressionPass {
  /** The codes whose suppressions this pass reports when they silence nothing. */
  judges(code: string): boolean;
  /** Whether this pass reports a suppression naming no code (so every code) that silences nothing. */
  judgesEveryCode: boolean;
}

const EVERY_SUPPRESSION: SuppressionPass = { judges: () => true, judgesEveryCode: true };

/**
 * The findings without those a suppression comment covers, and a finding
 * for each suppression that covers none (or names a code no rule has) among those `pass` judges.
 * `texts` holds the text of every file a finding may be in; `codes`, every code a comment may name.
 */
export function applySuppressions(
  diagnostics: Diagnostic[],
  texts: ReadonlyMap<string, TextLike>,
  codes: ReadonlySet<string>,
  pass: SuppressionPass = EVERY_SUPPRESSION,
): Diagnostic[] {
  const byFile = new Map<string, { suppressions: Suppression[]; lines: LineIndex }>();
  for (const [file, source] of texts) {
    // Looked for before the text is made one string: the server holds long documents in pieces.
    if (!source.includes('skillgraph-')) continue;
    const text = flatText(source);
    const suppressions = suppressionsIn(file, text);
    if (suppressions.length > 0) byFile.set(file, { suppressions, lines: new LineIndex(text) });
  }
  if (byFile.size === 0) return diagnostics;
  const kept = diagnostics.filter((item) => {
    const known = byFile.get(item.file);
    if (!known) return true;
    const line = known.lines.positionAt(item.span.start).line;
    const covering = known.suppressions.find(
      (suppression) =>
        line >= suppression.from &&
        line <= suppression.to &&
        (suppression.codes.length === 0 || suppression.codes.some((entry) => entry.code === item.code)),
    );
    covering?.used.add(item.code);
    return !covering;
  });
  for (const { suppressions } of byFile.values()) {
    // Per comment, how many of its codes silence nothing: when all of them, the fix removes the whole comment.
    const unusedIn = new Map<number, number>();
    for (const suppression of suppressions)
      for (const { code } of suppression.codes)
        if (!suppression.used.has(code) && pass.judges(code))
          unusedIn.set(suppression.span.start, (unusedIn.get(suppression.span.start) ?? 0) + 1);
    for (const suppression of suppressions) {
      if (suppression.codes.length === 0) {
        if (suppression.used.size === 0 && pass.judgesEveryCode)
          kept.push(
            diagnostic(unusedSuppression, suppression.file, suppression.span, 'This suppression silences no finding.', {
              comment: { start: suppression.span.start, end: suppression.span.end },
              whole: true,
            }),
          );
        continue;
      }
      for (const { code, span } of suppression.codes) {
        if (suppression.used.has(code) || !pass.judges(code)) continue;
        const suggestion = codes.has(code) ? undefined : closestName(code, codes);
        kept.push(
          diagnostic(
            unusedSuppression,
            suppression.file,
            span,
            codes.has(code)
              ? `No \`${code}\` finding is reported on the lines this suppression covers; remove it, so it does not hide the next one.`
              : `No rule has the code \`${code}\`${suggestion ? `; did you mean \`${suggestion}\`?` : '.'}`,
            {
              ...(suggestion ? { suggestion } : {}),
              comment: { start: suppression.span.start, end: suppression.span.end },
              whole: unusedIn.get(suppression.span.start) === suppression.written,
            },
          ),
        );
      }
    }
  }
  return kept;
}

/**
 * A suppression that silences nothing: its code, or (when none of the
 * comment's codes silences anything, or it names none) the whole comment,
 * removed. That changes no
 * finding, so it is safe; where the code looks misspelt, correcting it is
 * offered first (it then silences what it was written for).
 */
function removeSuppressionFix(item: Diagnostic, { text }: FixSource): Fix[] {
  const { comment, whole } = (item.data ?? {}) as { comment?: { start: number; end: number }; whole?: boolean };
  if (!comment) return [];
  const corrected = suggestionFix(item, { text });
  let removal: TextChange;
  if (whole) {
    const lineStart = text.lastIndexOf('\n', comment.start - 1) + 1;
    const lineEnd = lineEndAt(text, comment.end);
    const alone = text.slice(lineStart, comment.start).trim() === '' && text.slice(comment.end, lineEnd).trim() === '';
    const next = text.indexOf('\n', comment.end);
    removal = alone
      ? textChange(item.file, lineStart, next === -1 ? text.length : next + 1, '')
      : // A comment after other text: it and the blanks before it.
        textChange(
          item.file,
          comment.start - /[ \t]*$/.exec(text.slice(lineStart, comment.start))![0].length,
          comment.end,
          '',
        );
  } else {
    // One code of several: it and the separator before it (or after it, for the first).
    const before = /[ \t]*,?[ \t]*$/.exec(text.slice(comment.start, item.span.start))![0];
    const after = /^[ \t]*,[ \t]*/.exec(text.slice(item.span.end, comment.end))?.[0] ?? '';
    removal = before.includes(',')
      ? textChange(item.file, item.span.start - before.length, item.span.end, '')
      : textChange(item.file, item.span.start, item.span.end + after.length, '');
  }
  return [
    ...corrected,
    fixOf(item, 'Remove the suppression', 'safe', [removal], { preferred: corrected.length === 0 }),
  ];
}
