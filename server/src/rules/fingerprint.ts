import type { Span } from '../parse/text/lineIndex';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { sha256 } from '../workspace/sha256';
import { ruleOf } from './index';

/** Longest own text kept as it is; a longer one is its start and a hash of the rest (a baseline stays readable). */
const SHOWN = 80;

/** Own text shorter than this (a colon, a bracket) says too little: the finding's line stands for it. */
const MEANINGFUL = 3;

/**
 * What a finding is about, as written: the text of its span with runs of
 * white space made one space, or (for a finding at a point, such as the
 * start of the file, or on a character or two) the text of its line.
 * Neither moves when lines are added above it, so a baseline keyed on it
 * survives unrelated edits.
 */
export function ownText(text: string, span: Span): string {
  const start = Math.max(0, Math.min(span.start, text.length));
  const end = Math.max(start, Math.min(span.end, text.length));
  const own = text.slice(start, end).replace(/\s+/g, ' ').trim();
  if (own.length >= MEANINGFUL) return own;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', start);
  return text
    .slice(lineStart, lineEnd === -1 ? text.length : lineEnd)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The own text as a baseline shows it: itself when short, else its start and a hash of the whole. */
export function shownText(own: string): string {
  if (own.length <= SHOWN) return own;
  const hash = sha256(own).slice(0, 12);
  return `${own.slice(0, SHOWN - 16)}… #${hash}`;
}

/**
 * A finding's fingerprint: its code and its own text (shortened as shown),
 * not its line or message. Two findings of one code on the same text in one
 * file share it; a baseline counts them.
 */
export function fingerprintOf(item: Pick<Diagnostic, 'code'>, own: string): string {
  // A secret's text is never shown, not even in a baseline: it is fingerprinted by a hash of it alone.
  if (ruleOf(item.code)?.textIsSecret) return `${item.code}:#${sha256(own).slice(0, 16)}`;
  return `${item.code}:${shownText(own)}`;
}
