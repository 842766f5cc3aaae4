import type { LibrarySkill } from './libraryModel';
import { appendTo } from '../listMap';

// Two descriptions an agent cannot tell apart, by a measure a message can explain: the words they share, each weighed
// by how rare it is in the library (a word every description has tells nothing), over all the words either has.

/** Words every description may have: they say how a skill is used, not what it is for. */
const STOP_WORDS = new Set(
  (
    'a about above after again all also an and any are as at be because been before being between both but by can ' +
    'could did do does doing done each few for from further had has have having how if in into is it its itself just ' +
    'like may more most must need needs no nor not of off on once only or other our out over own same should so some ' +
    'such than that the their them then there these they this those through to too under until up use used uses ' +
    'using user users very via was were what when whenever where which while who whom why will with within without ' +
    'would you your skill skills ask asks asked want wants help helps task tasks work works file files'
  ).split(' '),
);

/** At or above this weighted share of their words, and with at least MIN_SHARED words shared, two are alike. */
const THRESHOLD = 0.6;
const MIN_SHARED = 5;

/** A description's words: lower-cased, stop words out, a plural's `s` dropped (so "reports" is "report"). */
export function descriptionTerms(description: string): Set<string> {
  const terms = new Set<string>();
  for (const word of description.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    terms.add(word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
  }
  return terms;
}

/** Each skill's terms, kept while the skill is (the language server reads a skill again only when it changes). */
const known = new WeakMap<LibrarySkill, Set<string>>();

function termsOf(skill: LibrarySkill): Set<string> {
  let terms = known.get(skill);
  if (!terms) known.set(skill, (terms = descriptionTerms(skill.description)));
  return terms;
}

export interface Overlap {
  /** The earlier of the two by path, and the later (where it is reported). */
  a: LibrarySkill;
  b: LibrarySkill;
  /** The words they share, rarest first. */
  shared: string[];
  /** Shared words' weight over all their words' weight, 0 to 1. */
  weight: number;
}

/**
 * The pairs of skills whose descriptions share THRESHOLD of their words by weight. Pairs are found through the words
 * they share (an index from word to skills), so a library of thousands compares only skills with something in common;
 * a word in more than a tenth of the library (and at least 20 descriptions) is too common to pair skills by.
 */
export function descriptionOverlaps(skills: LibrarySkill[]): Overlap[] {
  const ordered = [...skills].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const terms = ordered.map(termsOf);
  const frequency = new Map<string, number>();
  for (const set of terms) for (const term of set) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const weight = (term: string) => Math.log(1 + ordered.length / frequency.get(term)!);
  const common = Math.max(20, ordered.length / 10);
  const holders = new Map<string, number[]>();
  terms.forEach((set, index) => {
    for (const term of set) if (frequency.get(term)! <= common) appendTo(holders, term, index);
  });
  const overlaps: Overlap[] = [];
  terms.forEach((set, b) => {
    if (set.size < MIN_SHARED) return;
    const candidates = new Set<number>();
    for (const term of set) for (const a of holders.get(term) ?? []) if (a < b) candidates.add(a);
    for (const a of [...candidates].sort((x, y) => x - y)) {
      const shared = [...terms[a]].filter((term) => set.has(term));
      if (shared.length < MIN_SHARED) continue;
      const sharedWeight = shared.reduce((sum, term) => sum + weight(term), 0);
      const union = new Set([...terms[a], ...set]);
      const unionWeight = [...union].reduce((sum, term) => sum + weight(term), 0);
      const ratio = sharedWeight / unionWeight;
      if (ratio >= THRESHOLD)
        overlaps.push({
          a: ordered[a],
          b: ordered[b],
          shared: shared.sort((x, y) => weight(y) - weight(x) || (x < y ? -1 : 1)),
          weight: ratio,
        });
    }
  });
  return overlaps;
}
