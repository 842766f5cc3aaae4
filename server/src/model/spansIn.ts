import type { Span } from '../parse/lineIndex';

function isSpan(value: object): value is Span {
  return typeof (value as Span).start === 'number' && typeof (value as Span).end === 'number';
}

/**
 * Every span object in a part of the model, each once even where two
 * fields share one (a router's branch key is both an input's span and its
 * name's): the list a kept step is moved by. Walks every field, so a span
 * added to the model later moves too; it runs once per step built, not per
 * keystroke.
 */
export function spansIn(value: unknown): Span[] {
  const found = new Set<Span>();
  const walk = (item: unknown): void => {
    if (Array.isArray(item)) for (const part of item) walk(part);
    else if (item !== null && typeof item === 'object') {
      if (isSpan(item)) found.add(item);
      for (const part of Object.values(item)) walk(part);
    }
  };
  walk(value);
  return [...found];
}
