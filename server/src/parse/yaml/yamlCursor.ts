/**
 * Where the cursor is in a YAML region that may not parse (the user is
 * typing), read from indentation alone: the chain of parent keys, whether
 * the cursor is on a key or a value, and which step it is in.
 */
export interface YamlCursor {
  /** Parent keys, outermost first; `-` stands for a list item. */
  parents: string[];
  /** On a key (`na|`) or on the value of `key` (`type: |`, `- |` under `depends_on`). */
  position: { kind: 'key'; prefix: string } | { kind: 'value'; key: string; prefix: string };
  /** The enclosing item of `steps`, when there is one. */
  step?: { name?: string; line: number };
  /** The column where the current line's content starts. */
  indent: number;
  /** The cursor line starts a list item (`- …`): keys typed there belong to a new item. */
  onItem: boolean;
}

/** Keys whose value is a list of plain strings: a `- ` item under them is a value. */
const STRING_LISTS = new Set([
  'depends_on',
  'one_of',
  'trigger_when',
  'do_not_use_when',
  'anti_patterns',
  'assets',
  'inputs_to',
]);

const KEY = /^(\s*)(?:-\s+)?([A-Za-z_][\w-]*):(?:\s+(.*))?$/;
const ITEM = /^(\s*)-(?:\s+(.*))?$/;

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

function isBlank(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === '' || trimmed.startsWith('#');
}

export function yamlCursor(regionText: string, offsetInRegion: number): YamlCursor {
  const lines = regionText
    .slice(0, offsetInRegion)
    .split('\n')
    .map((line) => line.replace(/\r$/, ''));
  const cursorLine = lines.length - 1;
  const current = lines[cursorLine];
  const keyed = KEY.exec(current);
  const item = ITEM.exec(current);

  const parents: string[] = [];
  let step: YamlCursor['step'];
  let lastDash: number | undefined = item ? cursorLine : undefined;
  let limit = item ? item[1].length : indentOf(current);
  for (let n = cursorLine - 1; n >= 0; n--) {
    // At the left margin only a key holding a same-indentation list can still be a parent.
    if (limit === 0 && !(parents.length === 0 ? item : parents[0] === '-')) break;
    const line = lines[n];
    if (isBlank(line)) continue;
    const indent = indentOf(line);
    const dash = ITEM.exec(line);
    const key = KEY.exec(line);
    // A key may hold a list at its own indentation (`key:` then `- a` below it).
    const inList = parents.length === 0 ? !!item : parents[0] === '-';
    const holdsSameIndentList = key && !dash && indent === limit && (key[3] ?? '') === '' && inList;
    if (indent >= limit && !holdsSameIndentList) continue;
    if (dash) {
      parents.unshift('-');
      lastDash = n;
    } else if (key) {
      parents.unshift(key[2]);
      if (key[2] === 'steps' && parents[1] === '-' && lastDash !== undefined && !step) step = { line: lastDash };
    }
    limit = indent;
  }

  // Keys written on a dash line belong to that new list item.
  if (item && keyed) parents.push('-');
  let position: YamlCursor['position'];
  if (keyed && !(item && !keyed[3] && current.trimEnd().endsWith('-'))) {
    const raw = keyed[3] ?? '';
    position = {
      kind: 'value',
      key: keyed[2],
      prefix: raw
        .replace(/^.*[[,]\s*/, '')
        .replace(/^["']/, '')
        .trim(),
    };
  } else if (item && STRING_LISTS.has(parents[parents.length - 1] ?? '')) {
    position = { kind: 'value', key: parents[parents.length - 1], prefix: (item[2] ?? '').trim() };
  } else {
    position = { kind: 'key', prefix: (item ? (item[2] ?? '') : current).trim() };
  }
  if (step) step.name = stepName(regionText.split('\n'), step.line);
  return {
    parents,
    position,
    ...(step ? { step } : {}),
    indent: item ? item[1].length + 2 : indentOf(current),
    onItem: !!item,
  };
}

/**
 * The `name:` (AIP) or `id:` (MetaSkill) of the list item starting at `line` (on the dash line or a line of the item).
 */
function stepName(lines: string[], line: number): string | undefined {
  const dashIndent = indentOf(lines[line]);
  for (let n = line; n < lines.length; n++) {
    if (n > line && !isBlank(lines[n]) && indentOf(lines[n]) <= dashIndent) break;
    const match = /^\s*(?:-\s+)?(?:name|id):\s*["']?([^"'\s#]+)/.exec(lines[n]);
    if (match && (n === line || indentOf(lines[n]) === dashIndent + 2)) return match[1];
  }
  return undefined;
}
