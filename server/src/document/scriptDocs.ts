import { scriptLanguage } from '../platforms/shells';

const MAX_LINES = 20;

/**
 * The documentation a script starts with, read as text (never run): a
 * Python module docstring, or the leading comment block of a shell,
 * JavaScript or other script (after a shebang).
 */
export function leadingDocumentation(file: string, text: string): string | undefined {
  const body = text.replace(/^#!.*\n/, '').replace(/^\s*(?:#.*coding[:=].*\n)?/, '');
  if (scriptLanguage(file) === 'python') {
    const docstring = /^\s*(?:[rRuU]?)("""|''')([\s\S]*?)\1/.exec(body);
    if (docstring) return clip(docstring[2].trim());
  }
  const lines: string[] = [];
  for (const line of body.split('\n')) {
    const comment = /^\s*(?:#|\/\/|--|;|\*|\/\*\*?)\s?(.*?)(?:\*\/)?\s*$/.exec(line);
    if (!comment || line.trim() === '') break;
    lines.push(comment[1]);
  }
  const joined = lines.join('\n').trim();
  return joined === '' ? undefined : clip(joined);
}

function clip(text: string): string {
  const lines = text.split('\n');
  return lines.length > MAX_LINES ? `${lines.slice(0, MAX_LINES).join('\n')}\n…` : text;
}
