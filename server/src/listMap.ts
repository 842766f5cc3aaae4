/**
 * Adds `value` to the list `map` holds under `key`, making the list on first use: the one way the project groups items
 * by a key (in place: a list is never copied to add one item, which made grouping quadratic).
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
