import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location } from 'vscode-languageserver-types';
import { readText } from '../workspace/readText';
import { resolveSkillPath } from '../workspace/skillPaths';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { dataEdgesOf, locate } from './locate';
import { FILE_START_RANGE } from '../parse/text/lineIndex';

/** The `name:` line of a SKILL.md, where a composed skill is declared (the file start when absent). */
function nameLine(view: DocumentView, file: string) {
  const read = readText(view.fs, file);
  if (read.kind !== 'text') return FILE_START_RANGE;
  const match = /^name[ \t]*:[ \t]*(.*)$/m.exec(read.text);
  if (!match) return FILE_START_RANGE;
  const line = read.text.slice(0, match.index).split('\n').length - 1;
  const character = match[0].length - match[1].length;
  return { start: { line, character }, end: { line, character: character + match[1].trimEnd().length } };
}

/** The file a skill-relative path names, when it exists inside the skill. */
export function linkedFile(view: DocumentView, relative: string): string | undefined {
  const resolution = resolveSkillPath(view.fs, view.analysis.dir, relative);
  return resolution.status === 'found' && resolution.kind === 'file' ? resolution.absolute : undefined;
}

/**
 * Go to definition: an input → the output(s) producing it; a `depends_on`,
 * `inputs_to` or branch entry → that step; a script, template, asset or
 * path in prose → the file.
 */
export function definition(view: DocumentView, offset: number): Location[] {
  const target = locate(view, offset);
  switch (target.kind) {
    case 'port': {
      if (target.port.direction !== 'input') return [];
      // `inputs.collected.<step>`: the answers of that `user_input` step.
      const collected = /^inputs\.collected\.(.+)$/.exec(target.port.name)?.[1];
      if (collected)
        return view.analysis.model.nodes
          .filter((node) => node.id === collected)
          .map((node) => ({ uri: view.uri, range: rangeOf(view, node.nameSpan) }));
      return dataEdgesOf(view, target.port).producers.map((port) => ({
        uri: view.uri,
        range: rangeOf(view, port.nameSpan),
      }));
    }
    case 'skillRef':
      return target.ref.file
        ? [{ uri: pathToFileURL(target.ref.file).href, range: nameLine(view, target.ref.file) }]
        : [];
    case 'controlRef':
      return view.analysis.model.nodes
        .filter((node) => node.id === target.ref.target)
        .map((node) => ({ uri: view.uri, range: rangeOf(view, node.nameSpan) }));
    case 'link': {
      const file = linkedFile(view, target.link.path.split('#')[0]);
      return file ? [{ uri: pathToFileURL(path.resolve(file)).href, range: FILE_START_RANGE }] : [];
    }
    default:
      return [];
  }
}
