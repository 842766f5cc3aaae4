import type { SyntaxNode } from '@lezer/common';
import type { Diagnostic } from '../engine/diagnostic';
import { childrenOf, parsePython, textOf } from '../../parse/python/python';
import {
  argumentValues,
  canonicalName,
  formatString,
  formatted,
  importsOf,
  joined,
  joinedPath,
  lineAt,
  stringValue,
  type PythonFile,
} from './pythonValues';
import { callEffect, type CallSite } from './pythonCalls';
import {
  environmentValue,
  lineStarts,
  localCalls,
  MAX_STEPS,
  NOTHING,
  type Scope,
  sourcesOf,
  type Value,
} from './scriptEffects';

// A Python script read for what it does (never run): each value followed through assignments, attributes,
// subscripts, f-strings and calls within the file, and into a function of the file it is passed to (one level: that
// function's own calls to others are read with what they return, not again with its values). Not followed: values
// across files, through containers mutated in place (`list.append`), globals a function sets, class attributes read
// through another name than `self`, nor past a branch (the last assignment read is the one that holds).

/** What a script's Python does that hands the machine to someone else: each finding at the call that does it. */
export function pythonEffects(path: string, text: string): Diagnostic[] {
  const py = parsePython(path, text);
  const file: PythonFile = { py, imports: importsOf(py), lineStarts: lineStarts(text) };
  const functions = new Map<string, SyntaxNode>();
  py.tree.iterate({
    enter(node) {
      if (node.name === 'FunctionDefinition') {
        const name = node.node.getChild('VariableName');
        if (name) functions.set(textOf(py, name), node.node);
      }
    },
  });
  const findings = new Map<string, Diagnostic>();
  let steps = 0;

  const lookup = (scope: Scope | undefined, name: string): Value | undefined =>
    scope ? (scope.values.get(name) ?? lookup(scope.outer, name)) : undefined;

  function evaluate(node: SyntaxNode, scope: Scope): Value {
    if (++steps > MAX_STEPS) return NOTHING;
    const children = () => childrenOf(node).map((child) => evaluate(child, scope));
    switch (node.name) {
      case 'String':
        return stringValue(file, node);
      case 'ContinuedString': {
        const parts = children();
        return { text: joined(parts), sources: [] };
      }
      case 'FormatString':
        return formatString(file, node, (inner) => evaluate(inner, scope));
      case 'VariableName':
        return lookup(scope, textOf(py, node)) ?? NOTHING;
      case 'MemberExpression':
        return member(node, scope);
      case 'CallExpression':
        return call(node, scope);
      case 'BinaryExpression': {
        const [left, operator, right] = childrenOf(node);
        if (!left || !operator || !right) return { sources: sourcesOf(children()) };
        const [a, b] = [evaluate(left, scope), evaluate(right, scope)];
        const sources = sourcesOf([a, b]);
        const op = textOf(py, operator);
        if (op === '+') return { text: joined([a, b]), sources };
        if (op === '/' && a.text !== undefined) return { text: joinedPath([a, b]), sources };
        if (op === '%' && a.text !== undefined) {
          const values =
            right.name === 'TupleExpression' ? childrenOf(right).map((item) => evaluate(item, scope)) : [b];
          return { text: formatted(a.text, values, /%[-#0 +]*\d*(?:\.\d+)?[sdifrx]/g), sources };
        }
        return { sources };
      }
      case 'ParenthesizedExpression':
      case 'AwaitExpression': {
        const inner = children();
        return inner.length === 1 ? inner[0] : { sources: sourcesOf(inner) };
      }
      case 'Number':
      case 'Boolean':
      case 'None':
      case 'LambdaExpression':
        return NOTHING;
      default:
        return { sources: sourcesOf(children()) };
    }
  }

  /** `a.b` (an attribute, or `self.x` as the scope holds it) and `a[k]` (`os.environ['HOME']`). */
  function member(node: SyntaxNode, scope: Scope): Value {
    const held = lookup(scope, textOf(py, node));
    if (held) return held;
    const [receiver, key] = childrenOf(node);
    const name = canonicalName(file, node);
    if (name === 'os.environ')
      return {
        object: 'os.environ',
        sources: [{ kind: 'environment', what: 'the environment', line: lineAt(file, node.from) }],
      };
    if (!receiver) return NOTHING;
    const value = evaluate(receiver, scope);
    if (key && key.name !== 'PropertyName') {
      const index = evaluate(key, scope);
      if (value.object === 'os.environ') return environmentValue(index.text, lineAt(file, node.from));
      return { sources: sourcesOf([value, index]) };
    }
    return { sources: value.sources, ...(value.object ? { object: value.object } : {}) };
  }

  function call(node: SyntaxNode, scope: Scope): Value {
    const callee = node.firstChild;
    if (!callee) return NOTHING;
    const { positional, positionalNodes, keywords, spread } = argumentValues(file, node, (arg) => evaluate(arg, scope));
    const name = canonicalName(file, callee);
    const own = name && !name.includes('.') ? functions.get(name) : undefined;
    const method = name?.match(/^(?:self|cls)\.(\w+)$/)?.[1];
    const local = own ?? (method ? functions.get(method) : undefined);
    if (local && !lookup(scope, name!)) return localCall(local, positional, scope);
    const receiverNode = callee.name === 'MemberExpression' ? childrenOf(callee)[0] : undefined;
    // A name the script does not bind is a module's (`requests.post`); a method of a bound value (`session.post`) is
    // read on the value.
    const first = textOf(py, callee).split('.')[0];
    const ofModule = name !== undefined && !lookup(scope, first);
    const receiver = receiverNode && !ofModule ? evaluate(receiverNode, scope) : undefined;
    const site: CallSite = {
      file,
      node,
      callee,
      name: receiver ? undefined : name,
      method: callee.name === 'MemberExpression' ? textOf(py, childrenOf(callee).at(-1)!) : undefined,
      receiver,
      positional,
      positionalNodes,
      keywords,
      spread,
      inFunction: scope.inFunction,
      itemsOf: (list) =>
        list.name === 'ArrayExpression' || list.name === 'TupleExpression'
          ? childrenOf(list).map((item) => evaluate(item, scope))
          : undefined,
      report: (found) => {
        if (found) findings.set(`${found.code}:${found.span.start}:${found.span.end}`, found);
      },
      setReceiver: (value) => {
        if (receiverNode?.name === 'VariableName') scope.values.set(textOf(py, receiverNode), value);
      },
    };
    return callEffect(site);
  }

  const localCall = localCalls<SyntaxNode>(readFunction);

  function readFunction(fn: SyntaxNode, args: Value[], bound: boolean): Value {
    const name = textOf(py, fn.getChild('VariableName')!);
    const scope: Scope = { values: new Map(), outer: module, inFunction: name, bound, returns: [] };
    const params = fn.getChild('ParamList');
    const names = params ? childrenOf(params).filter((param) => param.name === 'VariableName') : [];
    const skipSelf = names.length > 0 && ['self', 'cls'].includes(textOf(py, names[0])) ? 1 : 0;
    names.slice(skipSelf).forEach((param, index) => scope.values.set(textOf(py, param), args[index] ?? NOTHING));
    const body = fn.getChild('Body');
    if (body) walk(body, scope);
    return { sources: sourcesOf(scope.returns) };
  }

  /** Binds a target (`x`, `a, b`, `self.x`, `d['k']`) to a value. */
  function bind(target: SyntaxNode, value: Value, scope: Scope) {
    if (target.name === 'VariableName') scope.values.set(textOf(py, target), value);
    else if (target.name === 'MemberExpression') {
      const [receiver, key] = childrenOf(target);
      if (key?.name === 'PropertyName') scope.values.set(textOf(py, target), value);
      // `d['k'] = secret`: the container now holds it too.
      else if (receiver?.name === 'VariableName' && value.sources.length > 0) {
        const held = lookup(scope, textOf(py, receiver)) ?? NOTHING;
        scope.values.set(textOf(py, receiver), { ...held, sources: sourcesOf([held, value]) });
      }
    } else if (['TupleExpression', 'ArrayExpression', 'ParenthesizedExpression'].includes(target.name))
      for (const item of childrenOf(target)) bind(item, { sources: value.sources }, scope);
  }

  function walk(block: SyntaxNode, scope: Scope) {
    for (let node = block.firstChild; node && steps <= MAX_STEPS; node = node.nextSibling) statement(node, scope);
  }

  function statement(node: SyntaxNode, scope: Scope) {
    const parts = childrenOf(node);
    switch (node.name) {
      case 'FunctionDefinition':
      case 'ImportStatement':
        return;
      case 'DecoratedStatement':
      case 'ClassDefinition':
      case 'Body':
        return walk(node, scope);
      case 'AssignStatement': {
        // `a = b = value`, `a: T = value`: every target before the last `=` gets the value.
        const assigns = parts.filter((part) => part.name === 'AssignOp');
        if (assigns.length === 0) return;
        const last = assigns.at(-1)!;
        const valueNode = parts.find((part) => part.from >= last.to);
        const value = valueNode ? evaluate(valueNode, scope) : NOTHING;
        for (const target of parts) if (target.to <= last.from && target.name !== 'TypeDef') bind(target, value, scope);
        return;
      }
      case 'UpdateStatement': {
        const [target, , valueNode] = parts;
        if (target && valueNode) {
          const value = evaluate(valueNode, scope);
          const held = evaluate(target, scope);
          bind(target, { text: joined([held, value]), sources: sourcesOf([held, value]) }, scope);
        }
        return;
      }
      case 'ReturnStatement':
        scope.returns.push(...parts.map((part) => evaluate(part, scope)));
        return;
      case 'ForStatement':
      case 'WithStatement': {
        // `for a, b in expr:` binds what precedes `in`; `with expr as name:` binds each name after `as`.
        const words: SyntaxNode[] = [];
        for (let child = node.firstChild; child; child = child.nextSibling) words.push(child);
        const inAt = words.findIndex((word) => word.name === 'in');
        if (node.name === 'ForStatement' && inAt > 0) {
          const value = words[inAt + 1] ? evaluate(words[inAt + 1], scope) : NOTHING;
          for (const target of words.slice(1, inAt)) bind(target, { sources: value.sources }, scope);
        } else
          for (let index = 0; index < words.length; index++) {
            const word = words[index];
            if (word.name === 'Body' || word.name === 'with' || word.name === 'async' || word.name === ',') continue;
            if (word.name === 'as') continue;
            const value = evaluate(word, scope);
            if (words[index + 1]?.name === 'as' && words[index + 2]) {
              bind(words[index + 2], value, scope);
              index += 2;
            }
          }
        for (const body of parts.filter((part) => part.name === 'Body')) walk(body, scope);
        return;
      }
      default:
        for (const part of parts) {
          if (part.name === 'Body') walk(part, scope);
          else if (/Statement$|Definition$/.test(part.name)) statement(part, scope);
          else evaluate(part, scope);
        }
    }
  }

  const module: Scope = { values: new Map(), bound: false, returns: [] };
  walk(py.tree.topNode, module);
  // Each function read on its own too, for what it does with what it reads itself.
  for (const fn of new Set(functions.values())) if (steps <= MAX_STEPS) readFunction(fn, [], false);
  return [...findings.values()].sort((a, b) => a.span.start - b.span.start);
}
