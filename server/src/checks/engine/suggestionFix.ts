import type { Diagnostic } from './diagnostic';
import { fixOf, textChange, type Fix, type FixSource } from './fix';

/**
 * A name the finding suggests in place of what is written (`data.suggestion`,
 * or `data.replacement` where the written form differs): a guess, so unsafe.
 * A value written in quotes keeps them; where the finding names the path it
 * is about (`data.path`), only that part of the written text changes, so a
 * `./` before it or an `#anchor` after it stays.
 */
export function suggestionFix(item: Diagnostic, { text }: Pick<FixSource, 'text'>): Fix[] {
  const data = (item.data ?? {}) as { suggestion?: unknown; replacement?: unknown; path?: unknown };
  if (typeof data.suggestion !== 'string') return [];
  const meant = typeof data.replacement === 'string' ? data.replacement : data.suggestion;
  const written = text.slice(item.span.start, item.span.end);
  const at = typeof data.path === 'string' ? written.indexOf(data.path) : -1;
  if (at !== -1) {
    const start = item.span.start + at;
    return [
      fixOf(item, `Change to "${meant}"`, 'unsafe', [
        textChange(item.file, start, start + (data.path as string).length, meant),
      ]),
    ];
  }
  const quote = /^["']/.test(written) && written.length > 1 && written.endsWith(written[0]) ? written[0] : '';
  return [
    fixOf(item, `Change to "${meant}"`, 'unsafe', [
      textChange(item.file, item.span.start, item.span.end, `${quote}${meant}${quote}`),
    ]),
  ];
}
