import type { Diagnostic } from '../checks/diagnostic';
import { fixOf, textChange, type Fix } from './fix';

// Fixes of how a file is stored rather than what it says. An editor keeps the
// byte-order mark and the line ending as properties of the buffer (and turns
// a `\n` it is given back into the buffer's ending), so these apply on disk.

/** The byte-order mark, removed: the text is the same. */
export function removeMarkFix(item: Diagnostic): Fix[] {
  return [
    fixOf(item, 'Remove the byte-order mark', 'safe', [{ kind: 'remove-bom', file: item.file }], { diskOnly: true }),
  ];
}

/** Every CRLF line ending of the file made LF. */
export function lineEndingsFix(text: string, item: Diagnostic): Fix[] {
  const edits = [];
  for (let at = text.indexOf('\r\n'); at !== -1; at = text.indexOf('\r\n', at + 2))
    edits.push(textChange(item.file, at, at + 1, ''));
  return edits.length > 0 ? [fixOf(item, 'Use LF line endings', 'safe', edits, { diskOnly: true })] : [];
}
