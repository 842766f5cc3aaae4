import type { Language, Tree } from 'web-tree-sitter';

// A tree-sitter tree copied into plain objects in one walk of a TreeCursor: every property of a web-tree-sitter node
// is a call into WebAssembly, so the reader, which looks at each node several times, reads copies instead. Only named
// nodes are copied (the operators and keywords between them are read from the text where needed): they are a third of
// the tree, and each costs calls.

/** A named node of the tree: its type (the grammar's rule), its place and its named children. */
export interface SyntaxNode {
  type: string;
  start: number;
  end: number;
  children: SyntaxNode[];
}

/**
 * Nodes whose children the reader never looks at: their text is read whole. (Their errors go unseen too: an error
 * inside a word is the word's, not a line to leave out.)
 */
const READ_WHOLE = new Set([
  'word',
  'number',
  'string_content',
  'raw_string',
  'ansi_c_string',
  'comment',
  'variable_name',
  'special_variable_name',
  'arithmetic_expansion',
  'heredoc_body',
  'heredoc_start',
  'heredoc_end',
  'regex',
  'extglob_pattern',
  'test_operator',
  'file_descriptor',
]);

/**
 * Nodes nested deeper than this are copied without their children: the reader recurses through the tree, and a text
 * of a thousand nested `$(` would exhaust the stack. No script a person writes nests so deep.
 */
const MAX_NESTING = 200;

/** Each node type's name and whether it is named, by id: read once per grammar rather than once per node. */
const typeTables = new WeakMap<Language, { names: string[]; named: boolean[] }>();

function typeTable(language: Language): { names: string[]; named: boolean[] } {
  let table = typeTables.get(language);
  if (!table) {
    table = { names: [], named: [] };
    for (let id = 0; id < language.nodeTypeCount; id++) {
      table.names.push(language.nodeTypeForId(id) ?? 'ERROR');
      table.named.push(language.nodeTypeIsNamed(id));
    }
    typeTables.set(language, table);
  }
  return table;
}

/** The tree copied; `firstError`: where the first error starts (text the grammar could not read), if any. */
export function syntaxNodes(tree: Tree): { root: SyntaxNode; firstError?: number } {
  const { names, named } = typeTable(tree.language);
  const cursor = tree.walk();
  const hasError = tree.rootNode.hasError;
  let firstError: number | undefined;
  const root: SyntaxNode = { type: 'program', start: cursor.startIndex, end: cursor.endIndex, children: [] };
  const parents = [root];
  let node = root;
  let more = cursor.gotoFirstChild();
  while (more) {
    const id = cursor.nodeTypeId;
    // An id past the grammar's types is an error.
    const type = names[id] ?? 'ERROR';
    let entered = false;
    if (named[id] ?? true) {
      const child: SyntaxNode = { type, start: cursor.startIndex, end: cursor.endIndex, children: [] };
      node.children.push(child);
      if (hasError && type === 'ERROR') firstError = Math.min(firstError ?? child.start, child.start);
      if (!READ_WHOLE.has(type) && type !== 'ERROR' && parents.length < MAX_NESTING && cursor.gotoFirstChild()) {
        parents.push(child);
        node = child;
        entered = true;
      }
    } else if (hasError && cursor.nodeIsMissing) {
      // A token the grammar took as missing (a `"` or a `fi` never written): the error is where what it closes starts.
      firstError = Math.min(firstError ?? node.start, node.start);
    }
    if (entered) continue;
    while (!(more = cursor.gotoNextSibling()) && parents.length > 1) {
      cursor.gotoParent();
      parents.pop();
      node = parents[parents.length - 1];
    }
  }
  cursor.delete();
  return { root, ...(firstError === undefined ? {} : { firstError }) };
}
