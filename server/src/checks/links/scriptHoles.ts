import * as path from 'node:path';
import type { GraphNode } from '../../model/skillModel';
import { LineIndex } from '../../parse/text/lineIndex';
import type { FileSystem } from '../../workspace/fileSystem';
import { readText } from '../../workspace/readText';
import { commandHoles } from '../match/commandText';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';
import { POSIX_SHELLS, scriptLanguage, shebangProgram } from '../../platforms/shells';

export const scriptUnresolved = defineRule({
  code: 'script_unresolved',
  category: 'graph',
  severity: 'warning',
  summary: "An AIP step's shell script keeps a placeholder, or reads a variable nothing sets.",
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

/** A state key and a shell variable name for the same value: `team-slug` and `TEAM_SLUG`. */
const variableName = (name: string) => name.toUpperCase().replace(/-/g, '_');

/**
 * An AIP step's shell script that would run with a hole in it: a placeholder left in (`<team-slug>`, `[path]`) or a
 * variable it reads and never sets, with no default and no input of the step by that name. Read only when the
 * script's own link checks found nothing (it exists, in the skill), and never run. One finding per step, at its
 * `script:`, naming each hole and its line.
 */
export function scriptHoleFindings(fs: FileSystem, dir: string, file: string, step: GraphNode): Diagnostic[] {
  const script = step.script;
  if (!script) return [];
  const read = readText(fs, path.join(dir, ...script.path.split('/')));
  if (read.kind !== 'text') return [];
  // A shell script, by its name or its first line: the scripts whose text is read for holes.
  const shell = scriptLanguage(script.path) === 'shell' || POSIX_SHELLS.has(shebangProgram(read.text) ?? '');
  if (!shell) return [];
  const inputs = new Set(step.inputs.map((port) => variableName(port.name)));
  const holes = commandHoles(read.text).filter(
    (hole) => hole.kind === 'placeholder' || !inputs.has(variableName(hole.name)),
  );
  if (holes.length === 0) return [];
  const lines = new LineIndex(read.text);
  const named = holes.map(
    (hole) =>
      `\`${hole.text}\` on line ${lines.positionAt(hole.start).line + 1} (${hole.kind === 'placeholder' ? 'a placeholder' : 'read, never set, not an input of the step'})`,
  );
  return [
    diagnostic(
      scriptUnresolved,
      file,
      script.span,
      `\`${script.path}\` would run with ${holes.length === 1 ? 'a hole' : `${holes.length} holes`}: ${named.join(', ')}. Fill each placeholder, and set each variable, give it a default (\`\${NAME:-…}\`) or make it an input of the step.`,
    ),
  ];
}
