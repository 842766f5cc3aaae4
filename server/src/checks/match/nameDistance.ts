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
  // What both names start and end with costs nothing, and no edit of the rest reaches into it (a swap across its edge
  // would need the letters beside the edge equal too): only the middles are compared. A procedure's steps share most
  // of their names (`step-0050`, `step-0123`), so a did-you-mean over a thousand of them compares a few letters each.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let aEnd = a.length;
  let bEnd = b.length;
  while (aEnd > start && bEnd > start && a[aEnd - 1] === b[bEnd - 1]) {
    aEnd--;
    bEnd--;
  }
  const [aLength, bLength] = [aEnd - start, bEnd - start];
  if (rows[0].length <= bLength) rows = rows.map(() => new Int32Array(2 * (bLength + 1)));
  let [before, previous, current] = rows;
  for (let j = 0; j <= bLength; j++) previous[j] = j;
  for (let i = 1; i <= aLength; i++) {
    current[0] = i;
    let rowMin = i;
    const letter = a[start + i - 1];
    for (let j = 1; j <= bLength; j++) {
      const cost = letter === b[start + j - 1] ? 0 : 1;
      let distance = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && letter === b[start + j - 2] && a[start + i - 2] === b[start + j - 1])
        distance = Math.min(distance, before[j - 2] + 1);
      current[j] = distance;
      rowMin = Math.min(rowMin, distance);
    }
    if (rowMin > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[bLength];
}

/** Names differing only in separators or case (`lc_path`, `lc-path`, `LcPath`) are the same name to a reader. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[-_\s.]/g, '');
}

/**
 * Whether `fold(candidate)` is `folded`, letter by letter without making the folded string: a did-you-mean asks it of
 * every step of a procedure. Names with other than ASCII letters are folded as `fold` does.
 */
function foldsTo(candidate: string, folded: string): boolean {
  let at = 0;
  for (let index = 0; index < candidate.length; index++) {
    let code = candidate.charCodeAt(index);
    if (code > 0x7f) return fold(candidate) === folded;
    // `-`, `_`, `.` and white space are dropped, capitals lowered.
    if (code === 0x2d || code === 0x5f || code === 0x2e || code === 0x20 || (code >= 0x09 && code <= 0x0d)) continue;
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    if (code !== folded.charCodeAt(at++)) return false;
  }
  return at === folded.length;
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
    const distance = foldsTo(candidate, folded) ? 0 : editDistance(name, candidate, limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
