import { innerSpan, type PyLiteral } from '../../../parse/python/python';
import type { FlowNode, FlowText, FlowValue } from './flow';

// The literal arguments of flow.py's calls, read into what they say of a node.

/** A string argument as a flow text (its value and where each character came from). */
export function flowText(literal: PyLiteral): FlowText | undefined {
  return literal.kind === 'string'
    ? { value: literal.value, span: innerSpan(literal), offsets: literal.offsets }
    : undefined;
}

/** A literal argument as a flow value: a string, a number, a boolean or None. */
export function flowValue(literal: PyLiteral): FlowValue | undefined {
  if (literal.kind === 'string') return { value: literal.value, span: innerSpan(literal) };
  return literal.kind === 'number' || literal.kind === 'bool' || literal.kind === 'none'
    ? { value: literal.value, span: literal.span }
    : undefined;
}

/** Sets what the keyword argument `key` says of `node` (the keywords `FLOW_ARGUMENTS` allows for its kind). */
export function assignArgument(node: FlowNode, key: string, literal: PyLiteral): void {
  const list = (item: PyLiteral) =>
    (item.kind === 'list' ? item.items : [item]).flatMap((entry) => flowText(entry) ?? []);
  switch (key) {
    case 'instruction':
    case 'question':
    case 'prompt':
    case 'summary':
      node.text = flowText(literal);
      break;
    case 'until':
      node.until = list(literal);
      break;
    case 'into':
    case 'on':
    case 'goal':
    case 'over':
    case 'item':
    case 'merge':
      if (literal.kind !== 'none') node[key] = flowText(literal);
      break;
    case 'tool':
      node.tools = list(literal);
      break;
    case 'rule':
      node.rules = list(literal);
      break;
    case 'choices':
      node.choices = (literal.kind === 'list' ? literal.items : [literal]).flatMap((entry) => flowValue(entry) ?? []);
      break;
    case 'max_rounds':
      node.maxRounds = flowValue(literal);
      break;
    case 'max_parallel':
      node.maxParallel = flowValue(literal);
      break;
  }
}
