/**
 * VS Code (1.139 and later) checks SKILL.md files itself, as part of its
 * chat skill support. Where it reports the same finding at the same place as
 * Skillgraph, the Problems panel would list it twice; in VS Code only, the
 * Skillgraph copy is left out unless it is more severe (a stricter profile).
 * Its quick fixes stay: the server offers them for the range either way.
 * What VS Code reports was found by running it (docs/vscode.md).
 */

/** The few fields of a diagnostic the comparison needs (a `vscode.Diagnostic` has them). */
export interface Finding {
  message: string;
  /** VS Code's own markers carry no source; Skillgraph's carry `skillgraph`. */
  source?: string;
  code?: string | number | { value: string | number };
  /** As in VS Code: 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
  range: { start: { line: number; character: number } };
}

/**
 * Skillgraph's code (and, where one code covers several findings, which of them) beside VS Code's message for the same
 * finding.
 */
const SAME_FINDINGS: { code: string; ours?: RegExp; theirs: RegExp }[] = [
  { code: 'name_mismatch', theirs: /^The skill name '.*' should match the folder name '.*'\.$/ },
  { code: 'missing_required_frontmatter', ours: /`description`/, theirs: /^Skill should provide a description\.$/ },
  { code: 'missing_required_frontmatter', ours: /`name`/, theirs: /^Skill should provide a name\.$/ },
  {
    code: 'invalid_name',
    theirs:
      /^(Skill name may only contain lowercase letters, numbers, and hyphens\.|The 'name' attribute must not be empty\.)$/,
  },
  { code: 'invalid_frontmatter_field', theirs: /^The '[\w-]+' attribute must be / },
  { code: 'unknown_frontmatter_key', theirs: /^Attribute '[\w-]+' is not supported by VS Code skills\./ },
];

function codeOf(finding: Finding): string {
  const code = typeof finding.code === 'object' ? finding.code.value : finding.code;
  return String(code ?? '');
}

/** Whether VS Code already shows `ours` among `native` (the document's other diagnostics), at least as severe. */
export function shownByVsCode(ours: Finding, native: readonly Finding[]): boolean {
  const pairing = SAME_FINDINGS.find(
    (item) => item.code === codeOf(ours) && (!item.ours || item.ours.test(ours.message)),
  );
  if (!pairing) return false;
  return native.some(
    (theirs) =>
      theirs.source === undefined &&
      pairing.theirs.test(theirs.message) &&
      theirs.range.start.line === ours.range.start.line &&
      theirs.range.start.character === ours.range.start.character &&
      theirs.severity <= ours.severity,
  );
}

/** A fingerprint of VS Code's own findings in a document: when it changes, Skillgraph's are filtered again. */
export function nativeFingerprint(diagnostics: readonly Finding[]): string {
  return diagnostics
    .filter((item) => item.source === undefined)
    .map((item) => `${item.range.start.line}:${item.range.start.character}:${item.severity}:${item.message}`)
    .join('\n');
}
