/** A position in a document, as the protocol counts it. */
export interface At {
  line: number;
  character: number;
}

/**
 * The bench's keystroke: an "x" typed at `at` on even rounds and deleted on
 * odd ones, so the document is back to its first text after every second
 * round. The change is all the client makes per keystroke: it keeps no copy
 * of the text, because slicing and splitting a large document on every
 * round left garbage whose collections in the bench's own process landed
 * inside the wait being timed.
 */
export function keystroke(at: At, round: number): { range: { start: At; end: At }; text: string } {
  const inserting = round % 2 === 0;
  return {
    range: { start: at, end: inserting ? at : { line: at.line, character: at.character + 1 } },
    text: inserting ? 'x' : '',
  };
}
