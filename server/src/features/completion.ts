import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver-types';
import frontmatterSchema from '../../../schemas/agent-skills.frontmatter.schema.json';
import { PROFILES } from '../platforms/profiles';
import { formatOf } from '../formats';
import { replacing } from '../document/completionRequest';
import type { CompletionRequest } from '../analysis/target';
import { contains } from '../analysis/documentView';
import { keysOf, schemaAt } from '../document/schemaLookup';
import { yamlCursor, type YamlCursor } from '../parse/yaml/yamlCursor';

/** Completion in the frontmatter and the procedure: keys from the schemas, steps, upstream outputs, types, paths. */
export function completion(request: CompletionRequest): CompletionItem[] {
  const { view, offset } = request;
  const syntax = view.analysis.syntax;
  if (!syntax) return [];
  const text = view.analysis.text;
  if (syntax.frontmatter && contains(syntax.frontmatter.content, offset)) {
    const region = syntax.frontmatter.content;
    const cursor = yamlCursor(text.slice(region.start, region.end), offset - region.start);
    // While the text does not parse, the last model that loaded says what the skill is.
    const model =
      view.analysis.model.nodes.length > 0 ? view.analysis.model : (request.lastGoodModel ?? view.analysis.model);
    const own = formatOf(model).features?.completion?.(request, { region: 'frontmatter', cursor, model });
    return own ?? frontmatterItems(request, cursor);
  }
  // The format's own YAML block (an AIP procedure), as written: it may not parse while it is typed.
  const fence = syntax.fences.find(
    (candidate) => ['yaml', 'yml'].includes(candidate.info.split(/\s+/)[0]) && contains(candidate.content, offset),
  );
  if (!fence) return [];
  const cursor = yamlCursor(text.slice(fence.content.start, fence.content.end), offset - fence.content.start);
  const model = view.analysis.model;
  return formatOf(view.analysis).features?.completion?.(request, { region: 'procedure', cursor, model }) ?? [];
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
    .filter((entry) => PROFILES[request.view.analysis.profile.id].knownKeys.has(entry.key) && !present.has(entry.key))
    .map((entry) => ({
      label: entry.key,
      kind: CompletionItemKind.Property,
      documentation: entry.description,
      textEdit: replacing(request, prefix, `${entry.key}: `),
    }));
}
