import type { Span } from '../parse/text/lineIndex';

function isSpan(value: object): value is Span {
  return typeof (value as Span).start === 'number' && typeof (value as Span).end === 'number';
}

/**
 * What moves when a reused part of a model (an AIP step, a skill+ flow node)
 * moves with the text above it: every span object in it and every list of
 * character offsets (`offsets`: the file offset of each character of a
 * text read from a string), each once even where two fields share one (a
 * router's branch key is both an input's span and its name's).
 */
export interface MovableParts {
  spans: Span[];
  offsets: number[][];
}

/** Below this many, a list is searched for an item already in it instead of hashing every item into a set. */
const LINEAR = 64;

/**
 * Adds `item` to `list` unless it is there: searched while the list is short (a step has a few dozen spans), with a
 * set beside it once the list is long. A set for every part gave each span object an identity hash: a third of what
 * walking 1,000 steps cost.
 */
function addOnce<T extends object>(list: T[], seen: { set?: Set<T> }, item: T): void {
  if (seen.set) {
    if (seen.set.has(item)) return;
    seen.set.add(item);
  } else if (list.includes(item)) {
    return;
  } else if (list.length === LINEAR) {
    seen.set = new Set([...list, item]);
  }
  list.push(item);
}

/**
 * The movable parts of a value. Walks every field, so a span added to the
 * model later moves too; it runs once per part built, not per keystroke.
 */
export function movablePartsIn(value: unknown): MovableParts {
  const spans: Span[] = [];
  const offsets: number[][] = [];
  const [seenSpans, seenOffsets] = [{}, {}];
  const walk = (item: unknown): void => {
    if (Array.isArray(item)) for (const part of item) walk(part);
    else if (item !== null && typeof item === 'object') {
      if (isSpan(item)) addOnce(spans, seenSpans, item);
      // A model's objects are plain data: their keys are their own, and walked without listing them in arrays first
      // (a 1,000-step procedure is walked whole when first read). Strings and numbers hold nothing to move.
      for (const key in item) {
        const part = (item as Record<string, unknown>)[key];
        if (part === null || typeof part !== 'object') continue;
        if (key === 'offsets' && Array.isArray(part)) addOnce(offsets, seenOffsets, part as number[]);
        else walk(part);
      }
    }
  };
  walk(value);
  return { spans, offsets };
}

/** Moves parts by `delta` characters, in place. */
export function moveParts(parts: MovableParts, delta: number): void {
  for (const span of parts.spans) {
    span.start += delta;
    span.end += delta;
  }
  for (const list of parts.offsets) for (let index = 0; index < list.length; index++) list[index] += delta;
}
