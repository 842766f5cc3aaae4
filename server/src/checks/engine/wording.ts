// How findings and fixes name several things in a sentence, in one way everywhere.

/** `a`, `a and b`, `a, b and c`. A caller that shows only some puts "N more" as the last item. */
export function listed(items: readonly string[]): string {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
