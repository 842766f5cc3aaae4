import * as path from 'node:path';
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver-types';
import { ControlOrder } from '../../../model/controlFlow';
import type { SkillModel } from '../../../model/skillModel';
import { replacing } from '../../../document/completionRequest';
import type { CompletionRequest } from '../../../analysis/target';
import { lineEndAt } from '../../../parse/text/lineIndex';
import { rangeOf } from '../../../analysis/documentView';
import { keysOf, schemaAt } from '../../../document/schemaLookup';
import { dependencyCandidates, stepItems } from '../../../document/stepItems';
import type { YamlCursor } from '../../../parse/yaml/yamlCursor';
import { procedureSchema } from './procedureSchema';

const TYPES = [
  'string',
  'integer',
  'float',
  'boolean',
  'object',
  'list[*]',
  'list[string]',
  'list[integer]',
  'list[float]',
  'list[boolean]',
  'list[object]',
];
const MAX_FILES = 200;

/** Completion in an AIP procedure: keys from its schema, steps, upstream outputs, types, the skill's files. */
export function procedureItems(request: CompletionRequest, cursor: YamlCursor): CompletionItem[] {
  const model =
    request.view.analysis.model.nodes.length > 0
      ? request.view.analysis.model
      : (request.lastGoodModel ?? request.view.analysis.model);
  if (cursor.position.kind === 'key') return keyItems(request, cursor, model);
  const { key, prefix } = cursor.position;
  const parent = cursor.parents[cursor.parents.length - 1];
  const grandparent = cursor.parents[cursor.parents.length - 2];
  const steps = (names: string[]) => stepItems(model, names, (name) => replacing(request, prefix, name));
  if (key === 'depends_on') return steps(dependencyCandidates(model, cursor.step?.name));
  if (key === 'inputs_to' || parent === 'branches')
    return steps(model.nodes.map((node) => node.id).filter((id) => id !== cursor.step?.name));
  if (key === 'name' && parent === '-' && grandparent === 'inputs') return upstreamOutputItems(request, cursor, model);
  if (key === 'type')
    return TYPES.map((type) => ({
      label: type,
      kind: CompletionItemKind.TypeParameter,
      textEdit: replacing(request, prefix, type),
    }));
  if (key === 'script') return fileItems(request, prefix, 'scripts');
  if (key === 'template' || key === 'assets') return fileItems(request, prefix, 'assets');
  if (key === 'path' && grandparent === 'references') return fileItems(request, prefix, 'references');
  if (key === 'kind')
    return ['decision', 'execution', 'client_task', 'router', 'end'].map((kind) => ({
      label: kind,
      kind: CompletionItemKind.EnumMember,
      textEdit: replacing(request, prefix, kind),
    }));
  return [];
}

function keyItems(request: CompletionRequest, cursor: YamlCursor, model: SkillModel): CompletionItem[] {
  const schemaPath: (string | number)[] = cursor.parents.map((parent) => (parent === '-' ? 0 : parent));
  if (cursor.onItem && cursor.parents[cursor.parents.length - 1] !== '-') schemaPath.push(0);
  const kind = model.nodes.find((node) => node.id === cursor.step?.name)?.kind;
  const schema = schemaAt(procedureSchema(request.view.analysis.format), schemaPath, (prefix) =>
    prefix.length === 2 && prefix[0] === 'steps' ? kind : undefined,
  );
  const prefix = cursor.position.prefix;
  const pad = ' '.repeat(cursor.indent);
  const items: CompletionItem[] = keysOf(schema).map((entry) => ({
    label: entry.key,
    kind: CompletionItemKind.Property,
    documentation: entry.description,
    textEdit: replacing(request, prefix, `${entry.key}: `),
  }));
  const last = cursor.parents[cursor.parents.length - 1];
  const owner = last === '-' ? cursor.parents[cursor.parents.length - 2] : last;
  if (owner === 'steps') {
    const v05 = request.view.analysis.format === 'aip-0.5';
    const body = v05
      ? `name: \${1:new-step}\n${pad}kind: \${2|execution,decision,client_task,router,end|}\n${pad}description: \${3}\n${pad}inputs_to: \${4}`
      : `name: \${1:new-step}\n${pad}description: \${2}\n${pad}inputs:\n${pad}  - name: \${3}\n${pad}    type: \${4|string,integer,float,boolean,object,list[*]|}\n${pad}outputs:\n${pad}  - name: \${5}\n${pad}    type: \${6|string,integer,float,boolean,object,list[*]|}`;
    items.push(
      snippet(request, prefix, 'New step', 'A step with a name, a description and typed inputs and outputs', body),
    );
  }
  if (owner === 'inputs' || owner === 'outputs') {
    items.push(
      snippet(
        request,
        prefix,
        `New ${owner === 'inputs' ? 'input' : 'output'}`,
        'An io item with a name, a type and a description',
        `name: \${1}\n${pad}type: \${2|string,integer,float,boolean,object,list[*]|}\n${pad}description: \${3}`,
      ),
    );
  }
  return items;
}

function snippet(
  request: CompletionRequest,
  prefix: string,
  label: string,
  detail: string,
  body: string,
): CompletionItem {
  return {
    label,
    detail,
    kind: CompletionItemKind.Snippet,
    insertTextFormat: InsertTextFormat.Snippet,
    textEdit: replacing(request, prefix, body),
    sortText: `~${label}`,
  };
}

/** Outputs of the steps that run before this one, each filling in its `type` too. */
function upstreamOutputItems(request: CompletionRequest, cursor: YamlCursor, model: SkillModel): CompletionItem[] {
  if (!cursor.step?.name || !model.nodes.some((node) => node.id === cursor.step!.name)) return [];
  const order = new ControlOrder(model.nodes, model.edges);
  const before = order.ancestorsOf(cursor.step.name);
  const prefix = cursor.position.kind === 'value' ? cursor.position.prefix : '';
  const lineEnd = lineEndAt(request.view.analysis.text, request.offset);
  const followedByType = /^\r?\n\s*type\s*:/.test(request.view.analysis.text.slice(lineEnd));
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  for (const node of model.nodes) {
    if (!before.has(node.id)) continue;
    for (const port of node.outputs) {
      if (seen.has(port.name)) continue;
      seen.add(port.name);
      const typeLine =
        port.type && !followedByType
          ? [
              {
                range: rangeOf(request.view, { start: lineEnd, end: lineEnd }),
                newText: `\n${' '.repeat(cursor.indent)}type: ${port.type}${port.nullable ? `\n${' '.repeat(cursor.indent)}nullable: true` : ''}`,
              },
            ]
          : [];
      items.push({
        label: port.name,
        kind: CompletionItemKind.Variable,
        detail: `${port.type ?? 'untyped'} — from ${node.id}`,
        documentation: port.description,
        textEdit: replacing(request, prefix, port.name),
        additionalTextEdits: typeLine,
      });
    }
  }
  return items;
}

/** Files under one of the skill's folders, as paths relative to the skill. */
function fileItems(request: CompletionRequest, prefix: string, folder: string): CompletionItem[] {
  const { fs, analysis } = request.view;
  const found: string[] = [];
  const pending = [folder];
  while (pending.length > 0 && found.length < MAX_FILES) {
    const relative = pending.shift()!;
    for (const entry of fs.readDirectory(path.join(analysis.dir, relative))) {
      const child = `${relative}/${entry.name}`;
      if (entry.kind === 'directory') pending.push(child);
      else if (entry.kind === 'file') found.push(child);
    }
  }
  return found
    .sort()
    .map((file) => ({ label: file, kind: CompletionItemKind.File, textEdit: replacing(request, prefix, file) }));
}
