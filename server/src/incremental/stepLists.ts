import type { Diagnostic } from '../checks/engine/diagnostic';
import type { GraphNode } from '../model/skillModel';
import type { Span } from '../parse/text/lineIndex';
import { findPathMentions, type PathMention } from '../parse/markdown/pathMentions';
import type { TextLike } from '../parse/text/textLike';
import type { ReusedSteps } from './reusedSteps';

/** `listOf(step)` for every step, one after another, and where each step's part ends. */
export function concatParts<T>(count: number, listOf: (step: number) => readonly T[]): { items: T[]; ends: number[] } {
  const items: T[] = [];
  const ends = new Array<number>(count);
  for (let step = 0; step < count; step++) {
    for (const item of listOf(step)) items.push(item);
    ends[step] = items.length;
  }
  return { items, ends };
}

/** A list made of one part per step: its items, where each step's part ends, what else it was made from. */
interface PartedList<T = unknown> {
  analysis: number;
  key: readonly unknown[];
  items: T[];
  ends: number[];
}

const SLASH = 0x2f;

/**
 * The paths mentioned from `start` to `end` of `text`: the text between steps is mostly a line break and a `- `, and a
 * path needs a `/`.
 */
function mentionsBetween(text: TextLike, start: number, end: number): PathMention[] {
  let slash = start;
  while (slash < end && text.charCodeAt(slash) !== SLASH) slash++;
  return slash < end ? findPathMentions(text, [{ start, end }]) : [];
}

/**
 * The lists every step adds a part to (control edges, script and link
 * findings, declared paths, the findings about paths the text mentions),
 * kept one part per step between analyses: an edit makes again only the
 * parts of the steps it changed (as `ReusedSteps` tells), so it does not walk
 * every step's part. A list is read-only: it may be last time's.
 */
export class StepLists {
  private readonly lists = new Map<string, PartedList>();
  private readonly sets = new Map<string, Set<unknown>>();

  constructor(private readonly steps: ReusedSteps) {}

  /**
   * The lists `listOf(step)` for every step, one after another: a list
   * (edges, findings, paths) each step adds its part to, which depends only
   * on that step, on `key` (compared item by item), and with
   * `readsPrevious` on the step before it too. While the steps line up with
   * the last analysis's and the key is the same, only the parts of the steps
   * that changed (and of the steps after those, with `readsPrevious`) are
   * made again; the others are last time's, the same objects, which moved
   * with their steps. `same`: every part made again holds last time's items
   * (the same objects, or equal strings), so the whole list does.
   */
  perStep<T>(
    name: string,
    count: number,
    key: readonly unknown[],
    readsPrevious: boolean,
    listOf: (step: number) => readonly T[],
  ): { items: readonly T[]; same: boolean } {
    const { analysis } = this.steps;
    const last = this.lists.get(name) as PartedList<T> | undefined;
    const lined =
      last &&
      last.analysis === analysis - 1 &&
      last.ends.length === count &&
      this.steps.count === count &&
      sameItems(last.key, key);
    const changed = lined ? this.steps.changedSteps() : undefined;
    if (!last || !changed) {
      const { items, ends } = concatParts(count, listOf);
      this.lists.set(name, { analysis, key, items, ends });
      return { items, same: false };
    }
    const redo: number[] = [];
    for (const step of changed) {
      if (redo[redo.length - 1] !== step) redo.push(step);
      if (readsPrevious && step + 1 < count) redo.push(step + 1);
    }
    if (redo.length === 0) {
      last.analysis = analysis;
      return { items: last.items, same: true };
    }
    const startOf = (step: number) => (step === 0 ? 0 : last.ends[step - 1]);
    const parts = redo.map((step) => listOf(step));
    let same = true;
    let resized = false;
    parts.forEach((part, at) => {
      const was = startOf(redo[at]);
      if (part.length !== last.ends[redo[at]] - was) {
        resized = true;
        same = false;
      } else if (same && part.some((item, index) => item !== last.items[was + index])) same = false;
    });
    if (!resized) {
      // Typing in a step's prose: every part keeps its length, so last time's list is copied whole and the new parts
      // written over theirs.
      const items = last.items.slice();
      parts.forEach((part, at) => part.forEach((item, index) => (items[startOf(redo[at]) + index] = item)));
      this.lists.set(name, { analysis, key, items, ends: last.ends });
      return { items, same };
    }
    const items: T[] = [];
    const ends = new Array<number>(count);
    let next = 0;
    // Last time's parts of the steps from `next` up to `step`, as they were.
    const copyUpTo = (step: number) => {
      const from = startOf(next);
      const shift = items.length - from;
      for (let index = from; index < startOf(step); index++) items.push(last.items[index]);
      for (let kept = next; kept < step; kept++) ends[kept] = last.ends[kept] + shift;
    };
    redo.forEach((step, at) => {
      copyUpTo(step);
      for (const item of parts[at]) items.push(item);
      ends[step] = items.length;
      next = step + 1;
    });
    copyUpTo(count);
    this.lists.set(name, { analysis, key, items, ends });
    return { items, same };
  }

  /** The set of a `perStep` list's items: last time's set while the list is the same, so it can stand in a key. */
  setOf<T>(name: string, list: { items: readonly T[]; same: boolean }): ReadonlySet<T> {
    const last = this.sets.get(name) as Set<T> | undefined;
    if (last && list.same) return last;
    const set = new Set(list.items);
    this.sets.set(name, set);
    return set;
  }

  /**
   * `check` of the paths mentioned in `region` of `text` (the block holding
   * the steps), as `findPathMentions` finds them, in text order, and the
   * mentions. Each step owns the mentions in its text and in the text
   * between it and the step before: a reused step's are not searched for
   * again (they move with it), and while `key` (what `check` reads besides
   * the mentions) is the same, neither are its findings looked at (see
   * `perStep`). The text before the first step and after the last is
   * searched every time.
   */
  mentionFindings(
    text: TextLike,
    region: Span,
    nodes: GraphNode[],
    key: readonly unknown[],
    check: (mentions: PathMention[]) => Diagnostic[],
  ): { findings: Diagnostic[]; mentions: PathMention[] } {
    const whole = () => {
      const mentions = findPathMentions(text, [region]);
      return { findings: check(mentions), mentions };
    };
    // Steps not read through `ReusedSteps`: search the block whole.
    if (nodes.length === 0 || this.steps.count !== nodes.length) return whole();
    let disordered = false;
    const part = (step: number): Diagnostic[] => {
      const node = nodes[step];
      const from = step === 0 ? node.span.start : nodes[step - 1].span.end;
      const entry = this.steps.entryAt(nodes, step);
      // Steps out of text order, or not read through `ReusedSteps`: the block is searched whole below.
      if (!entry || node.span.start < from || node.span.end > region.end) {
        disordered = true;
        return [];
      }
      if (!entry.mentions) {
        entry.mentions = findPathMentions(text, [node.span]);
        for (const mention of entry.mentions) entry.parts.spans.push(mention.span);
      }
      // The text between steps is searched again only when a step beside it changed; its mentions' spans, and the
      // stretch of text they were found in, are the last ones in `parts`, so they move with the step and are replaced
      // here.
      if (entry.between) entry.parts.spans.length -= entry.between.length + (entry.between.length > 0 ? 1 : 0);
      entry.between = mentionsBetween(text, from, node.span.start);
      for (const mention of entry.between) entry.parts.spans.push(mention.span);
      if (entry.between.length > 0) entry.parts.spans.push(entry.between[0].context);
      return check(entry.between.length === 0 ? entry.mentions : [...entry.between, ...entry.mentions]);
    };
    const steps = this.perStep('mention findings', nodes.length, key, true, part);
    if (disordered) {
      this.lists.delete('mention findings');
      return whole();
    }
    const before = mentionsBetween(text, region.start, nodes[0].span.start);
    const after = mentionsBetween(text, nodes[nodes.length - 1].span.end, region.end);
    const mentions = [...before];
    for (let step = 0; step < nodes.length; step++) {
      const entry = this.steps.entryAt(nodes, step);
      for (const mention of entry?.between ?? []) mentions.push(mention);
      for (const mention of entry?.mentions ?? []) mentions.push(mention);
    }
    for (const mention of after) mentions.push(mention);
    return { findings: [...check(before), ...steps.items, ...check(after)], mentions };
  }
}

/** Whether two lists hold the same items, in order (`Object.is`). */
export function sameItems<T>(a: readonly T[], b: readonly T[], same: (a: T, b: T) => boolean = Object.is): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (!same(a[index], b[index])) return false;
  return true;
}
