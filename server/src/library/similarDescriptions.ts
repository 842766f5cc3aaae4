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
      if (ratio >= THRESHOLD && !toldApartByName(ordered[a], ordered[b]))
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

/**
 * Whether two descriptions written from one template each name what sets their skill apart: a family of skills for
 * services, frameworks or kinds of thing ("AWS STS …" and "AWS S3 …", "… for Next.js" and "… for SvelteKit",
 * "KeyValueEntity" and "EventSourcedEntity") shares most words by design, and an agent tells its members apart by the
 * one word each names first, as its skill's name does (`oo-aws-sts`, `docs-nextjs`, `akka-kve-ttl`). Copies of one
 * skill (one name) are the collision's to report, not this; the same text twice tells nothing apart.
 */
function toldApartByName(a: LibrarySkill, b: LibrarySkill): boolean {
  if (a.name === b.name) return true;
  const text = (skill: LibrarySkill) =>
    skill.description
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  if (text(a) === text(b)) return false;
  const [ownA, ownB] = [nameParts(a.name), nameParts(b.name)];
  const distinctA = [...ownA].filter((part) => !ownB.has(part));
  const distinctB = [...ownB].filter((part) => !ownA.has(part));
  return namesFirst(a.description, distinctA, distinctB) && namesFirst(b.description, distinctB, distinctA);
}

/**
 * The description names one of `own` no later than any of `others` (a family's other member named in passing, or
 * the same word naming both: "Discord Bot" names `discordbot` and `discord`). A name with nothing of its own (`oo-ably`
 * beside `oo-ably-control`) is told apart by not naming the other's.
 */
function namesFirst(description: string, own: string[], others: string[]): boolean {
  const said = spokenForms(description);
  const theirs = Math.min(...others.map((part) => said.get(part) ?? Infinity));
  if (own.length === 0) return others.length > 0 && theirs === Infinity;
  let mine = Infinity;
  for (const part of own) {
    mine = Math.min(mine, said.get(part) ?? Infinity);
    if (part.length >= 5) for (const [form, index] of said) if (form.startsWith(part)) mine = Math.min(mine, index);
  }
  return mine !== Infinity && mine <= theirs;
}

/** Number words a name spells where its service writes a digit (`oo-twochat` for 2Chat). */
const NUMBERS: Record<string, string> = { one: '1', two: '2', three: '3', four: '4', five: '5' };

/** A skill name's parts (`oo-aws-sts`: oo, aws, sts), a leading number word also as its digit. */
function nameParts(name: string): Set<string> {
  const parts = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part.length >= 2);
  return new Set(
    parts.flatMap((part) => {
      const number = /^(one|two|three|four|five)(.+)$/.exec(part);
      return number ? [part, NUMBERS[number[1]] + number[2]] : [part];
    }),
  );
}

/**
 * How a description may name a thing, each form with the word it starts at: its words and their singulars, two
 * neighbours run together ("Next.js" as nextjs), and the initials of two to four neighbours or of a name's capitalised
 * parts ("event sourced entity", "KeyValueEntity": ese, kve).
 */
function spokenForms(description: string): Map<string, number> {
  const said = new Map<string, number>();
  const add = (form: string, at: number) => {
    if (!said.has(form)) said.set(form, at);
  };
  const words = description
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  words.forEach((word, at) => {
    add(word, at);
    if (word.length > 3 && word.endsWith('s')) add(word.slice(0, -1), at);
    if (at + 1 < words.length) add(word + words[at + 1], at);
    for (let length = 2; length <= 4 && at + length <= words.length; length++)
      add(
        words
          .slice(at, at + length)
          .map((part) => part[0])
          .join(''),
        at,
      );
  });
  // A capitalised name's initials, at the word it is (its position among the words, counted the same way).
  for (const match of description.matchAll(/\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g)) {
    const at = description
      .slice(0, match.index)
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean).length;
    add((match[0].match(/[A-Z]/g) ?? []).join('').toLowerCase(), at);
  }
  return said;
}
