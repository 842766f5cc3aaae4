import type { CodeLens } from 'vscode-languageserver-types';
import type { SkillLens } from '../analysis/target';
import { LensCommands } from '../protocol';

/** A document's lenses as the editor shows them: each with the client command that does what it says. */
export function codeLensesOf(uri: string, lenses: SkillLens[]): CodeLens[] {
  return lenses.map((lens) => ({
    range: lens.range,
    command:
      lens.action === 'showReferences'
        ? { title: lens.title, command: LensCommands.showReferences, arguments: [uri, lens.range.start] }
        : {
            title: lens.title,
            command: lens.action === 'compile' ? LensCommands.compileSkill : LensCommands.openPreviewToSide,
            arguments: [uri],
          },
  }));
}
