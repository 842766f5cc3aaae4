import type { TextLike } from '../parse/text/textLike';

// What the language service is told by the editor: its open documents, a request's cancellation, changes on disk.

/** A document the editor has open: its URI, version and text (the server's pieces, or a string). */
export interface OpenText {
  readonly uri: string;
  readonly version: number;
  readonly text: TextLike;
}

/** The documents the editor has open. */
export interface OpenDocuments {
  get(uri: string): OpenText | undefined;
  all(): readonly OpenText[];
}

/** A request's cancellation, as LSP gives it. */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

/** A change on disk, as the editor's file watcher reports it. */
export interface FileChange {
  file: string;
  kind: 'created' | 'changed' | 'deleted';
}
