import * as path from 'node:path';
import { CompletionItemKind, MarkupKind, type CompletionItem, type Hover } from 'vscode-languageserver-types';
import evalsSchema from '../../../schemas/agent-skills.evals.schema.json';
import queriesSchema from '../../../schemas/agent-skills.trigger-queries.schema.json';
import { parseYamlRegion } from '../parse/yaml/yamlSyntax';
import { nodeSpan, yamlLocationAt } from '../parse/yaml/yamlNodes';
import { replacing } from '../document/completionRequest';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { jsonCursor } from '../parse/json/jsonCursor';
import { keysOf, schemaAt } from '../document/schemaLookup';
import { sideFileFeatures } from './sideFileFeatures';

// A skill's eval files (`evals/evals.json`, the trigger query sets): what each field is for on hover, and the fields,
// values and input files they take as completion, from their schemas.

function schemaOf(view: DocumentView): object {
  return path.basename(view.file) === 'evals.json' ? evalsSchema : queriesSchema;
}

function hover(view: DocumentView, offset: number): Hover | null {
  // JSON is YAML: the YAML reading places every key, even while the rest of the file does not parse.
  const yaml = parseYamlRegion(view.text, { start: 0, end: view.text.length });
  const location = yamlLocationAt(yaml, offset);
  const keySpan = location.onKey ? nodeSpan(yaml, location.node) : undefined;
  const description = keySpan ? schemaAt(schemaOf(view), location.path)?.description : undefined;
  if (!keySpan || !description) return null;
  const key = location.path[location.path.length - 1];
  return {
    contents: { kind: MarkupKind.Markdown, value: `**${key}**\n\n${description}` },
    range: rangeOf(view, keySpan),
  };
}

function completion(view: DocumentView, offset: number): CompletionItem[] {
  const cursor = jsonCursor(view.text, offset);
  if (!cursor) return [];
  const request = { view, offset };
  const schema = schemaOf(view);
  if (cursor.position.kind === 'key') {
    const present = cursor.position.present;
    return keysOf(schemaAt(schema, cursor.path))
      .filter((entry) => !present.includes(entry.key))
      .map((entry) => ({
        label: entry.key,
        kind: CompletionItemKind.Property,
        documentation: entry.description,
        textEdit: replacing(request, cursor.prefix, `"${entry.key}": `),
      }));
  }
  const key = cursor.position.key;
  const at = key ? [...cursor.path, key] : cursor.path;
  const node = schemaAt(schema, at) as { type?: unknown; enum?: unknown[] } | undefined;
  if (node?.type === 'boolean')
    return ['true', 'false'].map((value) => ({
      label: value,
      kind: CompletionItemKind.Value,
      textEdit: replacing(request, cursor.prefix, value),
    }));
  // An input file of a case: the files the skill keeps for its evals.
  if (cursor.path[cursor.path.length - 2] === 'files')
    return evalInputs(view).map((file) => ({
      label: file,
      kind: CompletionItemKind.File,
      textEdit: replacing(request, cursor.prefix, `"${file}"`),
    }));
  return [];
}

/** The files under the skill's `evals/` folder other than the eval files themselves, relative to the skill. */
function evalInputs(view: DocumentView): string[] {
  const found: string[] = [];
  const pending = [path.join(view.analysis.dir, 'evals')];
  while (pending.length > 0 && found.length < 200) {
    const dir = pending.pop()!;
    for (const entry of view.fs.readDirectory(dir)) {
      const full = path.join(dir, entry.name);
      if (entry.kind === 'directory') pending.push(full);
      else if (entry.kind === 'file' && !view.analysis.sources.has(full))
        found.push(path.relative(view.analysis.dir, full).split(path.sep).join('/'));
    }
  }
  return found.sort();
}

/** The features of a skill's eval files. */
export const evalFileFeatures = sideFileFeatures(hover, completion);
