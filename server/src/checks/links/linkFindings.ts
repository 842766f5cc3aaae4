import type { FileSystem } from '../../workspace/fileSystem';
import type { Diagnostic } from '../engine/diagnostic';

/**
 * The findings about the paths a skill names (a step's script, a path its
 * prose mentions), worked out once per link object for one snapshot of the
 * disk. The language server keeps a step's links and mentions, the same
 * objects moved in place, while its text is unchanged, so the findings
 * about them are not worked out again for each of a procedure's steps on
 * every keystroke. They hold while the analyses read the same snapshot
 * (`useDisk`): a new one may answer differently.
 */
export class LinkFindings {
  private disk: FileSystem | undefined;
  private found = new WeakMap<object, Diagnostic[]>();

  /** Starts an analysis that reads `disk`: what was found on another snapshot is forgotten. */
  useDisk(disk: FileSystem): void {
    if (disk === this.disk) return;
    this.disk = disk;
    this.found = new WeakMap();
  }

  /** The findings kept for `link` (a `FileLink` or a `PathMention`), if any. */
  of(link: object): Diagnostic[] | undefined {
    return this.found.get(link);
  }

  /** Keeps the findings about `link`; returns them. */
  keep(link: object, findings: Diagnostic[]): Diagnostic[] {
    this.found.set(link, findings);
    return findings;
  }
}
