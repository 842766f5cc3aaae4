import type { Fix, FixTier, TextChange } from '../checks/engine/fix';

export interface FixChoice {
  /** Unsafe fixes too (`--unsafe`); else safe ones only. */
  unsafe: boolean;
  /** Only findings of these codes (none: every code). */
  codes?: ReadonlySet<string>;
  /** Fixes that apply on disk only (line endings, the byte-order mark) are left out for an editor's buffer. */
  onDisk: boolean;
}

/** The best tier among a finding's fixes: what the JSON report says of it. */
export function bestTier(fixes: readonly Fix[]): FixTier | undefined {
  if (fixes.some((fix) => fix.tier === 'safe' && fix.preferred)) return 'safe';
  return fixes.some((fix) => fix.preferred) ? 'unsafe' : undefined;
}

/**
 * Of each finding's fixes, the one to apply without asking: its preferred
 * fix, when that fix's tier is allowed. A finding whose fixes are all
 * alternatives of equal standing (none preferred) is left to a person.
 */
export function chosenFix(fixes: readonly Fix[], choice: FixChoice): Fix | undefined {
  const fix = fixes.find((candidate) => candidate.preferred && (choice.onDisk || !candidate.diskOnly));
  if (!fix || (fix.tier === 'unsafe' && !choice.unsafe)) return undefined;
  if (choice.codes && !choice.codes.has(fix.diagnostic.code)) return undefined;
  return fix;
}

/** Whether two text changes to one file touch the same text (or insert at one place, in an order no one chose). */
function overlap(a: TextChange, b: TextChange): boolean {
  if (a.file !== b.file) return false;
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  return a.start < b.end && b.start < a.end;
}

const sameEdit = (a: TextChange, b: TextChange) =>
  a.file === b.file && a.start === b.start && a.end === b.end && a.newText === b.newText;

/**
 * Fixes that can be applied together: each in the order given unless one
 * of its edits overlaps an edit already taken (the same edit twice, as two
 * findings' fixes may make, is taken once). What is left out is fixed on a
 * later pass, once the text has moved on.
 */
export function compatibleFixes(fixes: readonly Fix[]): Fix[] {
  const taken: TextChange[] = [];
  const created = new Set<string>();
  const kept: Fix[] = [];
  for (const fix of fixes) {
    const changes = fix.edits.filter((edit): edit is TextChange => edit.kind === 'replace');
    const fresh = changes.filter((change) => !taken.some((other) => sameEdit(change, other)));
    const creates = fix.edits.flatMap((edit) => (edit.kind === 'create' ? [edit.file] : []));
    if (fresh.some((change) => taken.some((other) => overlap(change, other)))) continue;
    if (creates.some((file) => created.has(file))) continue;
    taken.push(...fresh);
    for (const file of creates) created.add(file);
    kept.push(fix);
  }
  return kept;
}

/** `text` with `changes` (to this file, none overlapping) applied, in one pass (a line-ending fix has many). */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  const unique = changes.filter((change, index) => changes.findIndex((other) => sameEdit(change, other)) === index);
  const ordered = [...unique].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const change of ordered) {
    parts.push(text.slice(at, change.start), change.newText);
    at = Math.max(at, change.end);
  }
  parts.push(text.slice(at));
  return parts.join('');
}
