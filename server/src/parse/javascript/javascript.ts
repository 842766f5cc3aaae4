import { parse, type Node } from 'acorn';

// JavaScript read with acorn, never run: a syntax tree with offsets (ESTree), for the security rules that read what a
// script does. A text acorn cannot read (TypeScript's annotations, JSX) gives no tree; it never throws.

/** An ESTree node as acorn gives it: its kind, its place, and its fields. */
export type JsNode = Node & Record<string, unknown>;

/** The syntax tree of a script, or undefined when acorn cannot read it (TypeScript's annotations, JSX). */
export function parseJavaScript(text: string): JsNode | undefined {
  for (const sourceType of ['module', 'script'] as const)
    try {
      return parse(text, {
        ecmaVersion: 'latest',
        sourceType,
        allowHashBang: true,
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: true,
      }) as unknown as JsNode;
    } catch {
      // Read again as a script (`with`, octal literals), else left unread.
    }
  return undefined;
}

const isNode = (value: unknown): value is JsNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** The child nodes of a node, in order. */
export function childNodes(node: JsNode): JsNode[] {
  const children: JsNode[] = [];
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (Array.isArray(value)) children.push(...value.filter(isNode));
    else if (isNode(value)) children.push(value);
  }
  return children.sort((a, b) => a.start - b.start);
}

/** The dotted name a node spells (`cp.execSync`, `process.env.HOME`), or undefined. */
export function dotted(node: JsNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'Identifier') return node.name as string;
  if (node.type !== 'MemberExpression') return undefined;
  const object = dotted(node.object as JsNode);
  const property = node.property as JsNode;
  if (object === undefined) return undefined;
  if (!node.computed && property.type === 'Identifier') return `${object}.${property.name as string}`;
  if (property.type === 'Literal' && typeof property.value === 'string') return `${object}.${property.value}`;
  return undefined;
}

/** The module a `require('…')` loads (`node:fs` as `fs`), or undefined for anything else. */
export function requiredModule(init: JsNode): string | undefined {
  if (init.type !== 'CallExpression' || dotted(init.callee as JsNode) !== 'require') return undefined;
  const [name] = init.arguments as JsNode[];
  return name?.type === 'Literal' && typeof name.value === 'string' ? name.value.replace(/^node:/, '') : undefined;
}
