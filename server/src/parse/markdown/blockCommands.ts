import { PROMPT, SESSION_LANGUAGES } from '../../platforms/shells';
import { fenceLanguage, type Fence } from './skillFile';
import type { TextLike } from '../text/textLike';

// A fenced block of commands is either a script (every line is a command) or a session at a prompt: `$ npm test`
// followed by what it printed. In a session only the prompted lines are commands, and they start after the prompt;
// the rest is what the commands printed, which no rule reads as a command (a risk, a grant to suggest, a value to
// fill). Highlighters draw the line the same way (Prism's shell-session, highlight.js's console, Shiki's
// shellsession): a prompt is a line's first mark, maybe after the user, host and folder, followed by a space.

/** A command of a block: where its text starts in the file, and the text. */
export interface BlockCommand {
  start: number;
  text: string;
}

/**
 * A here-document's operator and delimiter: the lines up to the delimiter are the command's input, not output. Not a
 * here-string (`<<<`) nor a shift (`1 << 2`).
 */
const HERE_DOCUMENT = /(?<!<)<<(-?)[ \t]*(['"]?)([A-Za-z_][\w.-]*)\2/;

/** A heading over what a program printed: "Example output", "Sample output", "Output example". */
const OUTPUT_HEADING = /^#{1,6}\s.*\b(?:(?:example|sample|expected|typical)\s+output|output\s+(?:example|sample)s?)\b/i;
/** A sentence that hands over to what was printed: "It prints:", "The output looks like this:", "You'll see:". */
const OUTPUT_LEAD = /\b(?:prints|printed|outputs|output (?:is|looks like)|you(?:'ll| will| should) see)\b[^.\n]*:\s*$/i;

/**
 * Whether an unlabelled block shows what a program printed, by what introduces it (the last line before it): such a
 * block is output, not commands, whatever its lines look like (`missing: uv -> run: curl … | sh`). A block labelled
 * as a shell's is commands whatever precedes it.
 */
function introducesOutput(source: TextLike, fence: Fence): boolean {
  const before = source.slice(Math.max(0, fence.open.start - 400), fence.open.start).trimEnd();
  const line = before.slice(before.lastIndexOf('\n') + 1);
  return OUTPUT_HEADING.test(line) || OUTPUT_LEAD.test(line);
}

/**
 * The commands of a fenced block, in order. A block in which some line starts with a prompt is a session: each
 * prompted command is one, the prompt left out and the lines a trailing `\` or a here-document carries it on to
 * kept; the output between them is not read. Any other block is one piece, all of it commands.
 */
export function blockCommands(source: TextLike, fence: Fence): BlockCommand[] {
  const { start, end } = fence.content;
  if (fenceLanguage(fence) === '' && introducesOutput(source, fence)) return [];
  const text = source.slice(start, end);
  if (!SESSION_LANGUAGES.has(fenceLanguage(fence)) || !/[$%\u276F\u279C>]/.test(text)) return [{ start, text }];
  const lines = text.split('\n');
  if (!lines.some((line) => PROMPT.test(line))) return [{ start, text }];
  const commands: BlockCommand[] = [];
  let at = 0;
  let index = 0;
  while (index < lines.length) {
    const prompt = PROMPT.exec(lines[index]);
    const from = at + (prompt ? prompt[0].length : 0);
    // A command runs to its last continued line or its here-document's delimiter; output, up to the next prompt.
    let last = index;
    if (prompt) {
      let here = HERE_DOCUMENT.exec(lines[index]);
      while (last + 1 < lines.length && (here || /\\\r?$/.test(lines[last]))) {
        last++;
        if (here && (here[1] ? lines[last].replace(/^\t+/, '') : lines[last]).replace(/\r$/, '') === here[3])
          here = null;
        else if (!here) here = HERE_DOCUMENT.exec(lines[last]);
      }
    } else {
      while (last + 1 < lines.length && !PROMPT.test(lines[last + 1])) last++;
    }
    let to = at;
    for (let line = index; line <= last; line++) to += lines[line].length + 1;
    if (prompt) commands.push({ start: start + from, text: text.slice(from, to - 1) });
    at = to;
    index = last + 1;
  }
  return commands;
}

/** The commands of a fenced block as one script, a line apart: what it runs, without prompts or output. */
export function blockScript(source: TextLike, fence: Fence): string {
  return blockCommands(source, fence)
    .map((command) => command.text)
    .join('\n');
}
