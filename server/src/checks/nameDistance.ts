/**
 * The three rows the distance is worked out in, kept between calls: a did-you-mean compares a name with every step of
 * a procedure (a thousand, in a large one), and new rows for each would be most of its cost.
 */
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/**
 * Edit distance where swapping two neighbouring letters costs one, like an
 * insertion or deletion (optimal string alignment): "reveiw" is one typo
 * from "review". Stops early once it exceeds `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (rows[0].length <= b.length) rows = rows.map(() => new Int32Array(2 * (b.length + 1)));
  let [before, previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, before[j - 2] + 1);
      current[j] = distance;
      rowMin = Math.min(rowMin, distance);
    }
    if (rowMin > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

/** Names differing only in separators or case (`lc_path`, `lc-path`, `LcPath`) are the same name to a reader. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[-_\s.]/g, '');
}

/**
 * The candidate a name was most likely meant to be: same after folding
 * separators and case, or within a small edit distance (1 for short names,
 * 2 from 8 characters on). Undefined when nothing is close.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = name.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  const folded = fold(name);
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = fold(candidate) === folded ? 0 : editDistance(name, candidate, limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
