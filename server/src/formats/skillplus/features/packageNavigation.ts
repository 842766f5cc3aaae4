import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import { occurrenceAt, packageOccurrences, ruleIdFromFileName, type Occurrence } from '../read/packageSymbols';
import { type SkillPlusPackage } from '../read/readPackage';
import { resolveSkillPath } from '../../../workspace/skillPaths';
import { locationOf, rangeOf, type DocumentView } from '../../../analysis/documentView';
import { RenameError } from '../../../document/renameError';
import { appendTo } from '../../../listMap';
import { FILE_START_RANGE } from '../../../parse/text/lineIndex';
import type { SkillplusAnalysis } from '../read/analysis';

/** The package and the occurrence under the cursor in a skill+ document. */
export function occurrenceUnder(
  view: DocumentView<SkillplusAnalysis>,
  offset: number,
): { pkg: SkillPlusPackage; occurrence?: Occurrence; all: Occurrence[] } | undefined {
  const pkg = view.analysis.skillplus;
  if (!pkg) return undefined;
  const all = packageOccurrences(pkg);
  const occurrence = occurrenceAt(all, view.file, offset);
  return { pkg, all, ...(occurrence ? { occurrence } : {}) };
}

/** Where what the cursor names is defined: a State field, a stage or node, a rule, a script, a fan-out item. */
export function packageDefinition(view: DocumentView<SkillplusAnalysis>, offset: number): Location[] {
  const found = occurrenceUnder(view, offset);
  if (!found?.occurrence) return [];
  const { occurrence, all } = found;
  if (occurrence.symbol.kind === 'script') {
    const resolved = resolveSkillPath(view.fs, view.analysis.dir, occurrence.symbol.path);
    return resolved.status === 'found' ? [{ uri: pathToFileURL(resolved.absolute).href, range: FILE_START_RANGE }] : [];
  }
  return all
    .filter((item) => item.key === occurrence.key && item.role === 'definition')
    .map((item) => locationOf(view, item.span));
}

/** Every occurrence of what the cursor names, in every file of the package. */
export function packageReferences(
  view: DocumentView<SkillplusAnalysis>,
  offset: number,
  includeDeclaration: boolean,
): Location[] {
  const found = occurrenceUnder(view, offset);
  if (!found?.occurrence) return [];
  return found.all
    .filter((item) => item.key === found.occurrence!.key && (includeDeclaration || item.role !== 'definition'))
    .map((item) => locationOf(view, item.span));
}

/** Ids skill+ writes without quotes in predicates (`stage=deep-dive`); field names are Python identifiers. */
const ID = /^[A-Za-z_][A-Za-z0-9_.:/@-]*$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

function renamable(
  view: DocumentView<SkillplusAnalysis>,
  offset: number,
): { occurrence: Occurrence; all: Occurrence[]; pkg: SkillPlusPackage } | undefined {
  const found = occurrenceUnder(view, offset);
  const occurrence = found?.occurrence;
  if (!found || !occurrence || !['field', 'stage', 'node', 'rule'].includes(occurrence.symbol.kind)) return undefined;
  // Only what the package defines: a rule= naming no rule has nothing to rename.
  if (!found.all.some((item) => item.key === occurrence.key && item.role === 'definition')) return undefined;
  return { occurrence, all: found.all, pkg: found.pkg };
}

export function packagePrepareRename(
  view: DocumentView<SkillplusAnalysis>,
  offset: number,
): { range: Range; placeholder: string } | null {
  const found = renamable(view, offset);
  if (!found) return null;
  const { occurrence } = found;
  const current =
    occurrence.symbol.kind === 'field' ? occurrence.symbol.name : 'id' in occurrence.symbol ? occurrence.symbol.id : '';
  // A rule whose id is its file name is renamed from where it is used (its definition is the file itself).
  if (occurrence.role === 'definition' && occurrence.symbol.kind === 'rule' && ruleIdFromFileName(found.pkg, current))
    return null;
  return { range: rangeOf(view, occurrence.span), placeholder: current };
}

/**
 * Renames a State field, a stage, a node or a rule in every file that names
 * it. A rule whose id is its file's name is renamed with its file. Clashes
 * and names the predicates could not read are refused.
 */
export function packageRename(view: DocumentView<SkillplusAnalysis>, offset: number, newName: string): WorkspaceEdit {
  const found = renamable(view, offset);
  if (!found)
    throw new RenameError(
      'Nothing to rename here: place the cursor on a State field, a stage or node id, or a rule id.',
    );
  const { occurrence, all, pkg } = found;
  const symbol = occurrence.symbol;
  const kind = symbol.kind as 'field' | 'stage' | 'node' | 'rule';
  if (!(kind === 'field' ? FIELD : ID).test(newName))
    throw new RenameError(
      `"${newName}" is not a valid ${kind} name${kind === 'field' ? ' (a Python identifier)' : ' (letters, digits and _ . : / @ -, so predicates need no quotes)'}.`,
    );
  const current = symbol.kind === 'field' ? symbol.name : (symbol as { id: string }).id;
  const taken =
    symbol.kind === 'field'
      ? new Set(pkg.state?.models.get(symbol.model)?.fields.map((field) => field.name))
      : new Set(
          all
            .filter((item) => item.symbol.kind === kind && item.role === 'definition')
            .map((item) => (item.symbol as { id: string }).id),
        );
  if (newName !== current && taken.has(newName))
    throw new RenameError(`A ${kind} named "${newName}" already exists; renaming would merge two ${kind}s.`);

  const spans = [
    ...new Map(
      all
        .filter((item) => item.key === occurrence.key)
        .map((item) => [`${item.span.file}:${item.span.start}`, item.span]),
    ).values(),
  ];
  const byUri = new Map<string, { range: Range; newText: string }[]>();
  for (const span of spans) {
    // A rule's definition that is its file's opening line is not text to replace: the file is renamed instead.
    if (
      kind === 'rule' &&
      pkg.rules.some((rule) => rule.id === current && rule.idSpan === span && ruleIdFromFileName(pkg, current))
    )
      continue;
    const location = locationOf(view, span);
    appendTo(byUri, location.uri, { range: location.range, newText: newName });
  }
  const fileName = kind === 'rule' ? ruleIdFromFileName(pkg, current) : undefined;
  if (!fileName) return { changes: Object.fromEntries(byUri) };
  const rule = pkg.rules.find((item) => item.id === current)!;
  const renamed = path.join(path.dirname(rule.file), `${newName}${path.extname(rule.file)}`);
  if (view.fs.stat(renamed))
    throw new RenameError(
      `Rule "${current}" takes its id from its file name, and ${path.basename(renamed)} already exists.`,
    );
  return {
    documentChanges: [
      ...[...byUri].map(([uri, edits]) => ({ textDocument: { uri, version: null }, edits })),
      {
        kind: 'rename' as const,
        oldUri: pathToFileURL(rule.file).href,
        newUri: pathToFileURL(renamed).href,
        options: { overwrite: false, ignoreIfExists: false },
      },
    ],
  };
}
