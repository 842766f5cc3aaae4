/**
 * The first index in `0..count` where `before(index)` is false, for a
 * `before` that holds for a prefix of the indexes and not after it (a list
 * in order, asked "does this item come before what I look for?").
 */
export function firstNotBefore(count: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
