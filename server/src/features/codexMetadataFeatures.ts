import { CompletionItemKind, MarkupKind, type CompletionItem, type Hover } from 'vscode-languageserver-types';
import openaiSchema from '../../../schemas/codex-openai.schema.json';
import { parseYamlRegion } from '../parse/yaml/yamlSyntax';
import { nodeSpan, yamlLocationAt } from '../parse/yaml/yamlNodes';
import { replacing } from '../document/completionRequest';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { keysOf, schemaAt } from '../document/schemaLookup';
import { yamlCursor } from '../parse/yaml/yamlCursor';
import { sideFileFeatures } from './sideFileFeatures';

// A skill's `agents/openai.yaml` (Codex's metadata): what each key means on hover, and the keys and values Codex
// reads as completion, both from its schema. Its findings come with the skill's analysis (codexMetadata.ts).

function hover(view: DocumentView, offset: number): Hover | null {
  const yaml = parseYamlRegion(view.text, { start: 0, end: view.text.length });
  const location = yamlLocationAt(yaml, offset);
  const keySpan = location.onKey ? nodeSpan(yaml, location.node) : undefined;
  const description = keySpan ? schemaAt(openaiSchema, location.path)?.description : undefined;
  if (!keySpan || !description) return null;
  return {
    contents: {
      kind: MarkupKind.Markdown,
      value: `**${location.path.filter((part) => typeof part === 'string').join('.')}** (Codex)\n\n${description}`,
    },
    range: rangeOf(view, keySpan),
  };
}

function completion(view: DocumentView, offset: number): CompletionItem[] {
  const cursor = yamlCursor(view.text, offset);
  const request = { view, offset };
  const path = cursor.parents.map((parent) => (parent === '-' ? 0 : parent));
  if (cursor.position.kind === 'value') {
    const schema = schemaAt(openaiSchema, [...path, cursor.position.key]) as
      { enum?: string[]; type?: string } | undefined;
    const values = schema?.enum ?? (schema?.type === 'boolean' ? ['true', 'false'] : []);
    const prefix = cursor.position.prefix;
    return values.map((value) => ({
      label: value,
      kind: CompletionItemKind.EnumMember,
      textEdit: replacing(request, prefix, value),
    }));
  }
  const prefix = cursor.position.prefix;
  return keysOf(schemaAt(openaiSchema, path)).map((entry) => ({
    label: entry.key,
    kind: CompletionItemKind.Property,
    documentation: entry.description,
    textEdit: replacing(request, prefix, entry.type === 'object' ? `${entry.key}:\n` : `${entry.key}: `),
  }));
}

/** The features of a skill's `agents/openai.yaml`. */
export const codexMetadataFeatures = sideFileFeatures(hover, completion);
