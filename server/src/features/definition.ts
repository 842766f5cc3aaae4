import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location } from 'vscode-languageserver-types';
import { resolveSkillPath } from '../workspace/skillPaths';
import { rangeOf, type DocumentView } from './documentView';
import { dataEdgesOf, locate } from './locate';

const FILE_START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

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
      return dataEdgesOf(view, target.port).producers.map((port) => ({ uri: view.uri, range: rangeOf(view, port.nameSpan) }));
    }
    case 'controlRef':
      return view.analysis.model.nodes.filter((node) => node.id === target.ref.target).map((node) => ({ uri: view.uri, range: rangeOf(view, node.nameSpan) }));
    case 'link': {
      const file = linkedFile(view, target.link.path.split('#')[0]);
      return file ? [{ uri: pathToFileURL(path.resolve(file)).href, range: FILE_START }] : [];
    }
    default:
      return [];
  }
}
