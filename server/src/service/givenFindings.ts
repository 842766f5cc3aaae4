import type { Diagnostic } from '../checks/engine/diagnostic';

/**
 * The library's findings last given for each open SKILL.md, by what they say: an edit of one skill that changes
 * another's (a description that now collides with it) is found by comparing.
 */
export class GivenFindings {
  private readonly given = new Map<string, string>();

  record(file: string, findings: Diagnostic[]): void {
    this.given.set(file, keyOf(findings));
  }

  /**
   * Whether `file`'s findings among `all` (the library's, when made) differ from those given; false for a file none
   * were given for, and while the library's findings are not made.
   */
  changed(file: string, all: Diagnostic[] | undefined): boolean {
    const given = this.given.get(file);
    return given !== undefined && all !== undefined && keyOf(all.filter((item) => item.file === file)) !== given;
  }

  forget(file: string): void {
    this.given.delete(file);
  }
}

/** What findings say and where. */
function keyOf(findings: Diagnostic[]): string {
  return findings.map((item) => `${item.code} ${item.span.start} ${item.span.end} ${item.message}`).join('\n');
}
