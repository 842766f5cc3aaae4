import type { SyntaxNode } from '@lezer/common';
import type { Span } from '../../../parse/text/lineIndex';
import {
  argumentsOf,
  isDynamic,
  literalOf,
  spanOf,
  type PyLiteral,
  type PythonSyntax,
} from '../../../parse/python/python';
import { assignArgument, flowText } from './flowArguments';
import {
  emptyNode,
  FLOW_ARGUMENTS,
  TEXT_ARGUMENT,
  type FlowNode,
  type FlowNodeKind,
  type FlowProblem,
  invalidFlowCall,
} from './flow';

// One call of flow.py read into a node (`flow.agent(…)`, `with flow.branch(…)`): its id, its text and its keyword
// arguments, each held to the static subset.

/** What reading a call reports into: the file read, and where its problems and dynamic parts go. */
export interface CallReading {
  py: PythonSyntax;
  problem: (rule: FlowProblem['rule'], span: Span, message: string) => void;
  /** A part outside the static subset: only the first of a file is reported. */
  dynamic: (node: SyntaxNode, what: string) => void;
}

export function readKeywords(
  reading: CallReading,
  call: SyntaxNode,
  kind: FlowNodeKind | 'stage',
  use: (key: string, literal: PyLiteral, name: SyntaxNode) => void,
): void {
  const { py, problem, dynamic } = reading;
  const args = argumentsOf(py, call);
  for (const spread of args.spread) dynamic(spread, '`*args` or `**kwargs`');
  for (const [key, { name, value: node }] of args.keywords) {
    const allowed = FLOW_ARGUMENTS[kind];
    if (!allowed.includes(key)) {
      problem(
        invalidFlowCall,
        spanOf(py, name),
        `\`${kind}\` takes no \`${key}=\`; it takes ${allowed.map((item) => `\`${item}\``).join(', ')}.`,
      );
      continue;
    }
    const literal = literalOf(py, node);
    if (isDynamic(literal)) {
      dynamic(node, `The computed value of \`${key}=\``);
      continue;
    }
    use(key, literal, name);
  }
}

export function readCall(reading: CallReading, call: SyntaxNode, kind: FlowNodeKind): FlowNode {
  const { py, problem, dynamic } = reading;
  const args = argumentsOf(py, call);
  const idLiteral = args.positional[0] ? literalOf(py, args.positional[0]) : undefined;
  const id = idLiteral ? flowText(idLiteral) : undefined;
  if (!id) {
    if (idLiteral && isDynamic(idLiteral)) dynamic(args.positional[0], 'A computed node id');
    else problem(invalidFlowCall, spanOf(py, call), `\`flow.${kind}\` needs a literal id as its first argument.`);
  }
  const node = emptyNode(id?.value ?? `${kind}@${call.from}`, id?.span ?? spanOf(py, call), kind, spanOf(py, call));
  const textKey = TEXT_ARGUMENT[kind];
  if (args.positional[1]) {
    const literal = literalOf(py, args.positional[1]);
    if (isDynamic(literal)) dynamic(args.positional[1], 'A computed text (an f-string, a variable)');
    else if (textKey) node.text = flowText(literal);
    else
      problem(
        invalidFlowCall,
        spanOf(py, args.positional[1]),
        `\`flow.${kind}\` takes only its id positionally; name the other arguments.`,
      );
  }
  for (const extra of args.positional.slice(2))
    problem(
      invalidFlowCall,
      spanOf(py, extra),
      `\`flow.${kind}\` takes at most ${textKey ? 'an id and a text' : 'an id'} positionally; name the other arguments.`,
    );
  readKeywords(reading, call, kind, (key, literal) => assignArgument(node, key, literal));
  return node;
}
