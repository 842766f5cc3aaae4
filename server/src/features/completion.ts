import * as path from 'node:path';
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type TextEdit } from 'vscode-languageserver-types';
import frontmatterSchema from '../../../schemas/agent-skills.frontmatter.schema.json';
import procedure03 from '../../../schemas/aip-0.3.procedure.schema.json';
import procedure05 from '../../../schemas/aip-0.5.procedure.schema.json';
import type { Profile } from '../checks/profiles';
import { ControlOrder } from '../model/controlFlow';
import type { SkillModel } from '../model/skillModel';
import { yamlCursor, type YamlCursor } from './completionContext';
import { contains, lineEndAt, rangeOf, type DocumentView } from './documentView';
import { metaCompletion } from './metaCompletion';
import { keysOf, schemaAt } from './schemaLookup';
import { dependencyCandidates, stepItems } from './stepItems';
import type { CatalogSkill } from '../workspace/skillCatalog';

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

export interface CompletionRequest {
  view: DocumentView;
  offset: number;
  profile: Profile;
  /** The last model that loaded, for step names while the current text does not parse. */
  lastGoodModel?: SkillModel;
  /** The skills a MetaSkill may compose. */
  catalog?: Map<string, CatalogSkill>;
}

/** Completion in the frontmatter and the procedure: keys from the schemas, steps, upstream outputs, types, paths. */
export function completion(request: CompletionRequest): CompletionItem[] {
  const { view, offset } = request;
  const syntax = view.analysis.syntax;
  if (!syntax) return [];
  const text = view.analysis.text;
  if (syntax.frontmatter && contains(syntax.frontmatter.content, offset)) {
    const region = syntax.frontmatter.content;
    const cursor = yamlCursor(text.slice(region.start, region.end), offset - region.start);
    const model =
      view.analysis.model.nodes.length > 0 ? view.analysis.model : (request.lastGoodModel ?? view.analysis.model);
    const meta =
      model.format === 'metaskill'
        ? metaCompletion({ view, offset, model, catalog: request.catalog ?? new Map() }, cursor)
        : undefined;
    return meta ?? frontmatterItems(request, cursor);
  }
  const fence = syntax.fences.find(
    (candidate) => ['yaml', 'yml'].includes(candidate.info.split(/\s+/)[0]) && contains(candidate.content, offset),
  );
  if (!fence || view.analysis.format === 'agent-skill') return [];
  return procedureItems(
    request,
    yamlCursor(text.slice(fence.content.start, fence.content.end), offset - fence.content.start),
  );
}

function replacing(request: CompletionRequest, prefix: string, newText: string): TextEdit {
  return { range: rangeOf(request.view, { start: request.offset - prefix.length, end: request.offset }), newText };
}

function frontmatterItems(request: CompletionRequest, cursor: YamlCursor): CompletionItem[] {
  if (cursor.position.kind === 'value') {
    const values = (schemaAt(frontmatterSchema, [cursor.position.key]) as { enum?: string[] } | undefined)?.enum ?? [];
    const prefix = cursor.position.prefix;
    return values.map((value) => ({
      label: value,
      kind: CompletionItemKind.EnumMember,
      textEdit: replacing(request, prefix, value),
    }));
  }
  if (cursor.parents.length > 0) return [];
  // Read from the text: the frontmatter may not parse while a key is being typed.
  const region = request.view.analysis.syntax!.frontmatter!.content;
  const present = new Set(
    [...request.view.analysis.text.slice(region.start, region.end).matchAll(/^([A-Za-z_][\w-]*):/gm)].map(
      (match) => match[1],
    ),
  );
  const prefix = cursor.position.prefix;
  return keysOf(frontmatterSchema)
    .filter((entry) => request.profile.knownKeys.has(entry.key) && !present.has(entry.key))
    .map((entry) => ({
      label: entry.key,
      kind: CompletionItemKind.Property,
      documentation: entry.description,
      textEdit: replacing(request, prefix, `${entry.key}: `),
    }));
}

function procedureItems(request: CompletionRequest, cursor: YamlCursor): CompletionItem[] {
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

function schemaFor(request: CompletionRequest): object {
  return request.view.analysis.format === 'aip-0.5' ? procedure05 : procedure03;
}

function keyItems(request: CompletionRequest, cursor: YamlCursor, model: SkillModel): CompletionItem[] {
  const schemaPath: (string | number)[] = cursor.parents.map((parent) => (parent === '-' ? 0 : parent));
  if (cursor.onItem && cursor.parents[cursor.parents.length - 1] !== '-') schemaPath.push(0);
  const kind = model.nodes.find((node) => node.id === cursor.step?.name)?.kind;
  const schema = schemaAt(schemaFor(request), schemaPath, (prefix) =>
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
