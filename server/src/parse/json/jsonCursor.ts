/**
 * Where the cursor is in a JSON text that may not parse (the user is typing), read by scanning its tokens up to the
 * cursor: the path of the object or array it is in, whether it is where a key or a value goes, the keys already in
 * that object, and what has been typed of the current token.
 */
export interface JsonCursor {
  /** Keys and indexes from the root to the container the cursor is in. */
  path: (string | number)[];
  position: { kind: 'key'; present: string[] } | { kind: 'value'; key?: string };
  /** What has been typed of the token at the cursor (with its opening quote), replaced by a completion. */
  prefix: string;
}

interface Frame {
  kind: 'object' | 'array';
  /** The key or index this container has in its parent. */
  at?: string | number;
  /** Object: the last key read, and whether its value is being read; array: the index of the current item. */
  key?: string;
  afterColon: boolean;
  index: number;
  present: string[];
}

/** The cursor at `offset` of `text`, or undefined outside every object and array. */
export function jsonCursor(text: string, offset: number): JsonCursor | undefined {
  const stack: Frame[] = [];
  let at = 0;
  let pendingKey: string | number | undefined;
  while (at < offset) {
    const char = text[at];
    const top = stack[stack.length - 1];
    if (char === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= offset) {
        // The cursor is inside this string: it is the token being typed.
        return cursorOf(stack, text.slice(at, offset));
      }
      const value = text.slice(at + 1, end);
      if (top?.kind === 'object' && !top.afterColon) {
        top.key = value;
        top.present.push(value);
      }
      at = end + 1;
      continue;
    }
    if (char === '{' || char === '[') {
      pendingKey = top ? (top.kind === 'object' ? top.key : top.index) : undefined;
      stack.push({
        kind: char === '{' ? 'object' : 'array',
        ...(pendingKey !== undefined ? { at: pendingKey } : {}),
        afterColon: false,
        index: 0,
        present: [],
      });
    } else if (char === '}' || char === ']') stack.pop();
    else if (char === ':' && top?.kind === 'object') top.afterColon = true;
    else if (char === ',' && top) {
      if (top.kind === 'object') top.afterColon = false;
      else top.index++;
    }
    at++;
  }
  const word = /[\w-]*$/.exec(text.slice(0, offset))![0];
  return cursorOf(stack, word);
}

function cursorOf(stack: Frame[], prefix: string): JsonCursor | undefined {
  const top = stack[stack.length - 1];
  if (!top) return undefined;
  const path = stack.slice(1).map((frame) => frame.at!);
  if (top.kind === 'array') return { path: [...path, top.index], position: { kind: 'value' }, prefix };
  if (top.afterColon) return { path, position: { kind: 'value', ...(top.key ? { key: top.key } : {}) }, prefix };
  return { path, position: { kind: 'key', present: top.present }, prefix };
}
