import type { Diagnostic } from '../engine/diagnostic';
import { childNodes, dotted, requiredModule, type JsNode } from '../../parse/javascript/javascript';
import { javascriptCall, type JsCallSite } from './javascriptCalls';
import {
  environmentValue,
  lineOf,
  lineStarts,
  NOTHING,
  sourcesOf,
  tlsFinding,
  UNKNOWN,
  localCalls,
  MAX_STEPS,
  type Scope,
  type Value,
} from './scriptEffects';

// A JavaScript script read for what it does (never run), from acorn's syntax tree: values followed through
// declarations, assignments, destructuring, template literals, `+`, member access and calls within the file, and into
// a function of the file it is passed to (one level, as pythonEffects.ts does). Not followed: callbacks' arguments
// (`https.get(url, (res) => …)`), promises' `.then`, values across files or modules. TypeScript is read when acorn
// reads it (a script without type annotations); one with them is left to the shell reader, a line at a time.

const FUNCTION = /^(?:FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/;

/** What a script's JavaScript does that hands the machine to someone else: each finding at the call that does it. */
export function javascriptEffects(file: string, text: string, tree: JsNode): Diagnostic[] {
  const starts = lineStarts(text);
  const lineAt = (offset: number) => lineOf(starts, offset);
  const modules = new Map<string, string>();
  const functions = new Map<string, JsNode>();
  const findings = new Map<string, Diagnostic>();
  let steps = 0;
  const report = (found: Diagnostic | undefined) => {
    if (found) findings.set(`${found.code}:${found.span.start}:${found.span.end}`, found);
  };

  const lookup = (scope: Scope | undefined, name: string): Value | undefined =>
    scope ? (scope.values.get(name) ?? lookup(scope.outer, name)) : undefined;
  /** A dotted name with its first word read through the imports (`cp.exec` → `child_process.exec`). */
  const canonical = (name: string | undefined, scope: Scope) => {
    if (name === undefined) return undefined;
    const [first, ...rest] = name.split('.');
    const module = lookup(scope, first) ? undefined : modules.get(first);
    return module ? [module, ...rest].join('.') : name;
  };

  function evaluate(node: JsNode | undefined, scope: Scope): Value {
    if (!node || ++steps > MAX_STEPS) return NOTHING;
    switch (node.type) {
      case 'Literal':
        if (typeof node.value !== 'string') return NOTHING;
        // Its place, when the text is written as it reads (no escapes).
        return {
          text: node.value,
          sources: [],
          ...(String(node.raw).slice(1, -1) === node.value ? { at: node.start + 1 } : {}),
        };
      case 'Property': {
        const key = node.key as JsNode;
        const value = node.value as JsNode;
        if ((key.name ?? key.value) === 'rejectUnauthorized' && value.type === 'Literal' && value.value === false)
          report(
            tlsFinding(
              file,
              { start: node.start, end: node.end, file },
              '`rejectUnauthorized: false`',
              scope.inFunction,
            ),
          );
        return evaluate(value, scope);
      }
      case 'TemplateLiteral': {
        const quasis = node.quasis as JsNode[];
        const parts = (node.expressions as JsNode[]).map((item) => evaluate(item, scope));
        let joined = '';
        quasis.forEach((quasi, index) => {
          joined +=
            ((quasi.value as { cooked?: string }).cooked ?? '') +
            (index < parts.length ? (parts[index].text ?? UNKNOWN) : '');
        });
        return { text: joined, sources: sourcesOf(parts) };
      }
      case 'Identifier':
        return lookup(scope, node.name as string) ?? NOTHING;
      case 'MemberExpression': {
        const name = dotted(node);
        const held = name === undefined ? undefined : lookup(scope, name);
        if (held) return held;
        if (name === 'process.env')
          return {
            object: 'process.env',
            sources: [{ kind: 'environment', what: 'the environment', line: lineAt(node.start) }],
          };
        const object = evaluate(node.object as JsNode, scope);
        const key = node.computed
          ? evaluate(node.property as JsNode, scope)
          : { text: (node.property as JsNode).name as string, sources: [] };
        if (object.object === 'process.env') return environmentValue(key.text, lineAt(node.start));
        return { sources: sourcesOf([object, node.computed ? key : undefined]) };
      }
      case 'BinaryExpression': {
        const [left, right] = [evaluate(node.left as JsNode, scope), evaluate(node.right as JsNode, scope)];
        const sources = sourcesOf([left, right]);
        return node.operator === '+'
          ? { text: (left.text ?? UNKNOWN) + (right.text ?? UNKNOWN), sources }
          : { sources };
      }
      case 'CallExpression':
      case 'NewExpression':
        return call(node, scope);
      case 'AwaitExpression':
      case 'ChainExpression':
      case 'ParenthesizedExpression':
        return evaluate((node.argument ?? node.expression) as JsNode, scope);
      case 'AssignmentExpression': {
        const value = evaluate(node.right as JsNode, scope);
        if (dotted(node.left as JsNode) === 'process.env.NODE_TLS_REJECT_UNAUTHORIZED' && value.text === '0')
          report(
            tlsFinding(
              file,
              { start: node.start, end: node.end, file },
              '`NODE_TLS_REJECT_UNAUTHORIZED = 0`',
              scope.inFunction,
            ),
          );
        bind(node.left as JsNode, value, scope);
        return value;
      }
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return NOTHING;
      default:
        return { sources: sourcesOf(childNodes(node).map((child) => evaluate(child, scope))) };
    }
  }

  function call(node: JsNode, scope: Scope): Value {
    const callee = node.callee as JsNode;
    const args = (node.arguments as JsNode[]).map((arg) => evaluate(arg, scope));
    const written = dotted(callee);
    const local = written && !written.includes('.') && !lookup(scope, written) ? functions.get(written) : undefined;
    if (local) return localCall(local, args, scope);
    const first = written?.split('.')[0];
    // A name the script does not bind is a module's or a global's (`cp.exec`, `Buffer.from`); a bound one, a value's.
    const ofModule = first !== undefined && !lookup(scope, first);
    const receiverNode = callee.type === 'MemberExpression' ? (callee.object as JsNode) : undefined;
    // A call of what a call returns (`new Function(code)()`) is read through its callee.
    const receiver =
      receiverNode && !ofModule && written !== 'JSON.stringify'
        ? evaluate(receiverNode, scope)
        : written === undefined && !receiverNode
          ? evaluate(callee, scope)
          : undefined;
    const site: JsCallSite = {
      node,
      callee,
      name: receiver ? undefined : canonical(written, scope),
      method: callee.type === 'MemberExpression' ? dotted(callee)?.split('.').pop() : undefined,
      receiver,
      args,
      line: lineAt(node.start),
      file,
      inFunction: scope.inFunction,
      isNew: node.type === 'NewExpression',
      evaluate: (inner) => evaluate(inner, scope),
      report,
    };
    return javascriptCall(site);
  }

  const localCall = localCalls<JsNode>(readFunction);

  function readFunction(fn: JsNode, args: Value[], bound: boolean): Value {
    const name = ((fn.id as JsNode | null)?.name as string | undefined) ?? (fn.boundName as string | undefined);
    const scope: Scope = { values: new Map(), outer: module, inFunction: name, bound, returns: [] };
    (fn.params as JsNode[]).forEach((param, index) => bind(param, args[index] ?? NOTHING, scope));
    const body = fn.body as JsNode;
    if (body.type === 'BlockStatement') statement(body, scope);
    else scope.returns.push(evaluate(body, scope));
    return { sources: sourcesOf(scope.returns) };
  }

  /** Binds a target (`x`, `{ a, b }`, `[a, b]`, `obj.x`) to a value. */
  function bind(target: JsNode | null, value: Value, scope: Scope) {
    if (!target) return;
    if (target.type === 'Identifier') scope.values.set(target.name as string, value);
    else if (target.type === 'MemberExpression') {
      const name = dotted(target);
      if (name) scope.values.set(name, value);
      // `ctx[k] = v`, `ctx.token = v`: the object holds what is put in it, wherever it was declared.
      let base = target;
      while (base.type === 'MemberExpression') base = base.object as JsNode;
      const object = base.type === 'Identifier' ? (base.name as string) : undefined;
      if (object && value.sources.length > 0) {
        let holder: Scope | undefined = scope;
        while (holder && !holder.values.has(object)) holder = holder.outer;
        const held = holder?.values.get(object);
        if (holder && held) holder.values.set(object, { ...held, sources: sourcesOf([held, value]) });
      }
    } else if (target.type === 'AssignmentPattern') bind(target.left as JsNode, value, scope);
    else if (target.type === 'RestElement') bind(target.argument as JsNode, value, scope);
    else if (target.type === 'ObjectPattern')
      for (const property of target.properties as JsNode[]) {
        const key = property.key as JsNode | undefined;
        // `const { HOME, GITHUB_TOKEN } = process.env`: each name read as the environment's.
        const part =
          value.object === 'process.env' && key?.type === 'Identifier'
            ? environmentValue(key.name as string, value.sources[0]?.line ?? 0)
            : { sources: value.sources };
        bind((property.value ?? property.argument) as JsNode, part, scope);
      }
    else if (target.type === 'ArrayPattern')
      for (const element of target.elements as (JsNode | null)[]) bind(element, { sources: value.sources }, scope);
  }

  function statement(node: JsNode, scope: Scope) {
    if (++steps > MAX_STEPS) return;
    switch (node.type) {
      case 'FunctionDeclaration':
      case 'ImportDeclaration':
        return;
      case 'VariableDeclarator':
        // A function is read as one; a module loaded (`require('fs')`) is named by `modules`, not held as a value.
        if (node.init && (FUNCTION.test((node.init as JsNode).type) || requiredModule(node.init as JsNode))) return;
        bind(node.id as JsNode, evaluate(node.init as JsNode | undefined, scope), scope);
        return;
      case 'ReturnStatement':
        scope.returns.push(evaluate(node.argument as JsNode | undefined, scope));
        return;
      case 'ExpressionStatement':
        evaluate(node.expression as JsNode, scope);
        return;
      case 'ForOfStatement':
      case 'ForInStatement': {
        const value = evaluate(node.right as JsNode, scope);
        const left = node.left as JsNode;
        const target = left.type === 'VariableDeclaration' ? ((left.declarations as JsNode[])[0]?.id as JsNode) : left;
        bind(target, { sources: value.sources }, scope);
        statement(node.body as JsNode, scope);
        return;
      }
      default:
        for (const child of childNodes(node))
          if (/Statement$|Declaration$|Declarator$|^SwitchCase$|^CatchClause$|^Program$/.test(child.type))
            statement(child, scope);
          else if (!FUNCTION.test(child.type)) evaluate(child, scope);
    }
  }

  /** The modules a script loads, by the names it binds, and its functions by name. */
  function declarations(node: JsNode) {
    if (node.type === 'ImportDeclaration') {
      const source = String((node.source as JsNode).value).replace(/^node:/, '');
      for (const specifier of node.specifiers as JsNode[]) {
        const local = (specifier.local as JsNode).name as string;
        const imported = specifier.imported as JsNode | undefined;
        modules.set(local, imported ? `${source}.${(imported.name ?? imported.value) as string}` : source);
      }
    } else if (node.type === 'VariableDeclarator' && node.init) {
      const init = node.init as JsNode;
      const source = requiredModule(init);
      const id = node.id as JsNode;
      if (source && id.type === 'Identifier') modules.set(id.name as string, source);
      else if (source && id.type === 'ObjectPattern')
        for (const property of id.properties as JsNode[])
          if ((property.key as JsNode)?.type === 'Identifier' && (property.value as JsNode)?.type === 'Identifier')
            modules.set(
              (property.value as JsNode).name as string,
              `${source}.${(property.key as JsNode).name as string}`,
            );
      if (FUNCTION.test(init.type) && id.type === 'Identifier') {
        init.boundName = id.name;
        functions.set(id.name as string, init);
      }
    } else if (node.type === 'FunctionDeclaration' && node.id) functions.set((node.id as JsNode).name as string, node);
    for (const child of childNodes(node)) declarations(child);
  }

  const module: Scope = { values: new Map(), bound: false, returns: [] };
  declarations(tree);
  statement(tree, module);
  for (const fn of new Set(functions.values())) if (steps <= MAX_STEPS) readFunction(fn, [], false);
  return [...findings.values()].sort((a, b) => a.span.start - b.span.start);
}
