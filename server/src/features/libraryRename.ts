import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { linkTarget, qualifiedName, resolveMention, type Library, type LibrarySkill } from '../library/libraryModel';
import { LineIndex, type Span } from '../parse/text/lineIndex';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { RenameError } from '../document/renameError';

// Renaming a skill across the library: its `name`, its folder when the folder bears the name (the specification asks
// that they match), and every mention and link of it in the other skills. The edits carry one annotation that says
// what they are for, which an editor's preview groups them under (VS Code: Ctrl+Enter in the rename box).

/** A skill name as the specification allows it: lower-case letters, digits and single hyphens, at most 64. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ANNOTATION = 'skillgraph.renameSkill';

/** The skill a rename at `offset` of `skill`'s SKILL.md renames, and the span of the name there. */
export function skillToRename(
  library: Library,
  skill: LibrarySkill,
  offset: number,
): { target: LibrarySkill; span: Span } | undefined {
  const within = (span: Span | undefined) => span !== undefined && span.start <= offset && offset <= span.end;
  if (within(skill.nameSpan)) return { target: skill, span: skill.nameSpan! };
  const mention = skill.mentions.find((candidate) => candidate.kind !== 'link' && within(candidate.span));
  const targets = mention
    ? (resolveMention(library.byName, mention, skill) ?? []).filter((other) => other !== skill)
    : [];
  // A name two skills share: which one is meant is not the rename's to guess.
  return mention && targets.length === 1 ? { target: targets[0], span: mention.span } : undefined;
}

/** Lines of a file, read once per rename. */
function linesOf(fs: FileSystem): (file: string) => LineIndex {
  const read = new Map<string, LineIndex>();
  return (file) => {
    let lines = read.get(file);
    if (!lines) {
      const text = readText(fs, file);
      read.set(file, (lines = new LineIndex(text.kind === 'text' ? text.text : '')));
    }
    return lines;
  };
}

/**
 * The edits that rename `target` to `newName`: its `name`, every mention of it by name, every link into its folder,
 * and its folder (when named as the skill). Refused (RenameError) for a name the specification does not allow, one
 * another skill has, or a folder that is there already.
 */
export function renameSkill(fs: FileSystem, library: Library, target: LibrarySkill, newName: string): WorkspaceEdit {
  if (!SKILL_NAME.test(newName))
    throw new RenameError(
      `"${newName}" is not a skill name: lower-case letters, digits and single hyphens, at most 64 characters.`,
    );
  const taken = library.byName.get(target.scope.kind === 'plugin' ? `${target.scope.plugin}:${newName}` : newName);
  if (taken?.some((other) => other !== target))
    throw new RenameError(`A skill named "${newName}" is already in the library (${taken[0].file}).`);
  const renamesFolder = path.basename(target.dir) === target.name && newName !== target.name;
  const newDir = path.join(path.dirname(target.dir), newName);
  if (renamesFolder && fs.stat(newDir))
    throw new RenameError(`${newDir} is already there; the skill's folder cannot take its name.`);
  return (
    skillRenameEdit(fs, library, target, {
      name: newName,
      ...(renamesFolder ? { folder: { to: newDir, move: true } } : {}),
    }) ?? { changes: {} }
  );
}

/**
 * The edits of a change to `target`: its name (in its `name` and every mention of it by name), and its folder's new
 * place (links into it follow), with the folder's move when `move` (a rename asked of the server; a folder the user
 * renamed moves itself: `workspace/willRenameFiles`).
 */
export function skillRenameEdit(
  fs: FileSystem,
  library: Library,
  target: LibrarySkill,
  change: { name?: string; folder?: { to: string; move: boolean } },
): WorkspaceEdit | null {
  const lines = linesOf(fs);
  const byFile = new Map<string, TextEdit[]>();
  const edit = (file: string, span: Span, newText: string) => {
    const range: Range = lines(file).rangeOf(span);
    const edits = byFile.get(file) ?? [];
    edits.push({ range, newText });
    byFile.set(file, edits);
  };
  const { name, folder } = change;
  if (name !== undefined && target.nameSpan) edit(target.file, target.nameSpan, name);
  for (const skill of library.skills) {
    if (skill === target) continue;
    for (const mention of skill.mentions) {
      if (mention.kind === 'link') {
        // A link into the folder follows it: its folder segment is the folder's new name.
        if (folder && linkTarget(skill, mention) === target.file) {
          const renamed = mention.path!.replace(/[^/]+(\/(?:SKILL\.md)?)$/, `${path.basename(folder.to)}$1`);
          if (renamed !== mention.path) edit(skill.file, mention.span, renamed);
        }
      } else if (name !== undefined && resolveMention(library.byName, mention, skill)?.includes(target))
        edit(skill.file, mention.span, name);
    }
  }
  const move = folder?.move ? folder.to : undefined;
  if (byFile.size === 0 && !move) return null;
  const label = `Rename the skill ${qualifiedName(target)}${name !== undefined ? ` to ${name}` : ''}`;
  return {
    documentChanges: [
      ...[...byFile].map(([file, edits]) => ({
        textDocument: { uri: pathToFileURL(file).href, version: null },
        edits: edits.map((item) => ({ ...item, annotationId: ANNOTATION })),
      })),
      ...(move
        ? [
            {
              kind: 'rename' as const,
              oldUri: pathToFileURL(target.dir).href,
              newUri: pathToFileURL(move).href,
              annotationId: ANNOTATION,
            },
          ]
        : []),
    ],
    changeAnnotations: {
      [ANNOTATION]: {
        label,
        needsConfirmation: false,
        ...(folder ? { description: `its folder becomes ${path.basename(folder.to)}` } : {}),
      },
    },
  };
}

/**
 * What a folder the user renames asks of the library (`workspace/willRenameFiles`): for each skill folder among
 * `renames` (old → new path), its links follow it, and when the skill was named as its folder (and the new folder
 * name is a skill name), its `name` and every mention of it take the new name.
 */
export function folderRenameEdits(
  fs: FileSystem,
  library: Library,
  renames: { from: string; to: string }[],
): WorkspaceEdit | null {
  const edits = renames.flatMap(({ from, to }) =>
    library.skills
      .filter((skill) => skill.dir === from)
      .flatMap((skill) => {
        const newName = path.basename(to);
        const renamesSkill =
          skill.name === path.basename(from) && SKILL_NAME.test(newName) && !library.byName.get(newName)?.length;
        return (
          skillRenameEdit(fs, library, skill, {
            ...(renamesSkill ? { name: newName } : {}),
            folder: { to, move: false },
          }) ?? []
        );
      }),
  );
  if (edits.length === 0) return null;
  // One edit: every skill's changes, under the one annotation they share.
  return {
    documentChanges: edits.flatMap((item) => item.documentChanges ?? []),
    changeAnnotations: Object.assign({}, ...edits.map((item) => item.changeAnnotations)),
  };
}
