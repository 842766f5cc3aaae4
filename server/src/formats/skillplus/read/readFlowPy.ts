import type { SyntaxNode } from '@lezer/common';
import type { Span } from '../../../parse/text/lineIndex';
import type { ReusedReadings } from '../../../parse/parseCache';
import {
  argumentsOf,
  childrenOf,
  dottedName,
  literalOf,
  spanOf,
  textOf,
  type PythonSyntax,
} from '../../../parse/python/python';
import { flowText, flowValue } from './flowArguments';
import {
  type Flow,
  type FlowNode,
  type FlowNodeKind,
  type FlowProblem,
  type FlowStage,
  dynamicFlow,
  invalidBranch,
  invalidFlowCall,
  nestedStage,
  nodeOutsideStage,
} from './flow';
import { readCall, readKeywords } from './readFlowCall';
import { readReusedStage, readPlainCall, type FlowReading, type FlowStatement } from './reusedFlowStatements';

// flow.py read statically into a flow: its statements walked, stage by stage and block by block, each node placed.

/** Where a statement sits: its stage, the container it is in, and the branch variable a `with … as b` made. */
interface Scope {
  stage?: FlowStage;
  /** Where new nodes go: a stage's node list, a case's, a body's. */
  into?: string[];
  parent?: FlowNode;
  branch?: { node: FlowNode; variable: string };
}

/**
 * Reads `flow.py` statically, as the format note's subset defines it: a
 * docstring, imports and `def build(flow)`; inside, `with flow.stage(…)`,
 * `flow.agent/ask/confirm/end(…)`, `with flow.branch/loop/fanout(…)` and
 * `b.case`/`b.otherwise`, with literal arguments. Anything else is a
 * `dynamic_flow` problem at its first line, reported once; the nodes
 * inside it are still read. Nothing is imported or run.
 */
export function readFlowPy(py: PythonSyntax, reused?: ReusedReadings<FlowStatement>): Flow {
  const flow: Flow = { file: py.file, front: 'py', stages: [], nodes: [], problems: [] };
  const placed = new Set<FlowNode>();
  const problem = (rule: FlowProblem['rule'], span: Span, message: string) =>
    flow.problems.push({ rule, message, span });
  let dynamicReported = false;
  const dynamic = (node: SyntaxNode, what: string) => {
    reading.dynamicParts++;
    if (dynamicReported) return;
    dynamicReported = true;
    const lineEnd = py.text.indexOf('\n', node.from);
    problem(
      dynamicFlow,
      { start: node.from, end: lineEnd === -1 || lineEnd > node.to ? node.to : lineEnd, file: py.file },
      `${what} is not part of the static flow subset: the runtime reads flow.py without running it, so it cannot follow this. The nodes inside are still read; write the flow with literal calls only.`,
    );
  };
  const reading: FlowReading = { py, flow, placed, problem, dynamic, dynamicParts: 0, reused };

  const top = py.tree.topNode;
  let build: SyntaxNode | undefined;
  for (const statement of childrenOf(top)) {
    if (statement.name === 'ImportStatement') continue;
    if (statement.name === 'ExpressionStatement' && statement.firstChild?.name === 'String') continue;
    if (
      statement.name === 'FunctionDefinition' &&
      statement.getChild('VariableName') &&
      textOf(py, statement.getChild('VariableName')!) === 'build' &&
      !build
    ) {
      build = statement;
      continue;
    }
    dynamic(statement, statement.name === 'FunctionDefinition' ? 'A helper function' : 'Module-level code');
    if (statement.name === 'FunctionDefinition') readBlock(statement.getChild('Body'), {});
  }
  if (!build)
    problem(
      invalidFlowCall,
      { start: 0, end: Math.min(py.text.length, 1), file: py.file },
      'flow.py must define `def build(flow):`, the function the flow is read from.',
    );
  else readBlock(build.getChild('Body'), {});
  reused?.done();
  return flow;

  function readBlock(body: SyntaxNode | null, scope: Scope): void {
    if (!body) return;
    for (const statement of childrenOf(body)) readStatement(statement, scope);
  }

  function readStatement(statement: SyntaxNode, scope: Scope): void {
    if (statement.name === 'PassStatement' || statement.name === 'Comment') return;
    if (statement.name === 'ExpressionStatement') {
      const expression = statement.firstChild;
      if (expression?.name === 'String' || expression?.name === 'ContinuedString') return;
      if (expression?.name === 'CallExpression') {
        const callee = dottedName(py, expression.firstChild);
        const kind = callee?.startsWith('flow.') ? (callee.slice(5) as FlowNodeKind) : undefined;
        if (kind && ['agent', 'ask', 'confirm', 'end'].includes(kind)) {
          addNode(readPlainCall(reading, expression, kind), scope);
          return;
        }
      }
      dynamic(statement, 'This statement');
      return;
    }
    if (statement.name === 'WithStatement') {
      readWith(statement, scope);
      return;
    }
    // Loops, conditions, assignments: not static; their bodies may still hold nodes.
    dynamic(statement, `A \`${textOf(py, statement).split(/\s/)[0]}\` statement`);
    for (const child of childrenOf(statement)) if (child.name === 'Body') readBlock(child, scope);
  }

  function readWith(statement: SyntaxNode, scope: Scope): void {
    const call = statement.getChild('CallExpression');
    const body = statement.getChild('Body');
    const callee = call ? dottedName(py, call.firstChild) : undefined;
    const alias = statement.getChild('VariableName');
    if (!call || !callee) {
      dynamic(statement, 'This `with` block');
      readBlock(body, scope);
      return;
    }
    if (
      scope.branch &&
      (callee === `${scope.branch.variable}.case` || callee === `${scope.branch.variable}.otherwise`)
    ) {
      readCase(call, callee.endsWith('.otherwise'), body, scope);
      return;
    }
    if (/\.(case|otherwise)$/.test(callee)) {
      problem(
        invalidBranch,
        spanOf(py, call),
        `\`${callee}\` is used outside the \`with\` of its branch: cases go directly inside \`with flow.branch(…) as ${callee.split('.')[0]}:\`.`,
      );
      readBlock(body, scope);
      return;
    }
    if (callee === 'flow.stage') {
      readReusedStage(reading, statement, () => readStage(statement, call, body, scope));
      return;
    }
    const kind = callee.startsWith('flow.') ? (callee.slice(5) as FlowNodeKind) : undefined;
    if (kind === 'branch' || kind === 'loop' || kind === 'fanout') {
      const node = readCall(reading, call, kind);
      node.span = spanOf(py, statement);
      addNode(node, scope);
      if (kind === 'branch') {
        if (!alias)
          problem(invalidBranch, spanOf(py, call), 'A branch needs a name for its cases: `with flow.branch(…) as b:`.');
        readBlock(body, {
          ...scope,
          into: [],
          parent: node,
          branch: { node, variable: alias ? textOf(py, alias) : 'b' },
        });
      } else readBlock(body, { ...scope, into: node.body, parent: node, branch: undefined });
      return;
    }
    dynamic(statement, `\`with ${callee}(…)\``);
    readBlock(body, scope);
  }

  /** A `with flow.stage(…)` block the last reading did not keep: its id, its goal and the nodes it holds. */
  function readStage(statement: SyntaxNode, call: SyntaxNode, body: SyntaxNode | null, scope: Scope): FlowStage {
    const args = argumentsOf(py, call);
    const id = args.positional[0] ? flowText(literalOf(py, args.positional[0])) : undefined;
    const stage: FlowStage = {
      id: id?.value ?? `stage@${statement.from}`,
      idSpan: id?.span ?? spanOf(py, call),
      nodes: [],
      span: spanOf(py, statement),
    };
    if (!id) problem(invalidFlowCall, spanOf(py, call), '`flow.stage` needs a literal id as its first argument.');
    readKeywords(reading, call, 'stage', (key, literal) => {
      if (key === 'goal') stage.goal = flowText(literal);
    });
    if (scope.stage)
      problem(
        nestedStage,
        stage.idSpan,
        `Stage "${stage.id}" is inside stage "${scope.stage.id}": stages are top level only.`,
      );
    flow.stages.push(stage);
    readBlock(body, { stage, into: stage.nodes });
    return stage;
  }

  function readCase(call: SyntaxNode, otherwise: boolean, body: SyntaxNode | null, scope: Scope): void {
    const branch = scope.branch!.node;
    const nodes: string[] = [];
    if (otherwise) branch.otherwise = { nodes, span: spanOf(py, call) };
    else {
      const args = argumentsOf(py, call);
      const values = args.positional.flatMap((argument) => {
        const literal = literalOf(py, argument);
        const found = flowValue(literal);
        if (!found) dynamic(argument, 'A computed case value');
        return found ? [found] : [];
      });
      const descNode = args.keywords.get('desc');
      const desc = descNode ? flowText(literalOf(py, descNode.value)) : undefined;
      for (const [key, entry] of args.keywords)
        if (key !== 'desc')
          problem(invalidFlowCall, spanOf(py, entry.name), `\`case\` takes values or \`desc=\`, not \`${key}=\`.`);
      branch.cases.push({ values, ...(desc ? { desc } : {}), nodes, span: spanOf(py, call) });
    }
    readBlock(body, { ...scope, into: nodes, parent: branch, branch: undefined });
  }

  function addNode(node: FlowNode, scope: Scope): void {
    flow.nodes.push(node);
    placed.add(node);
    // A node kept from the last reading may have left its stage or parent: only then is the field removed (a delete
    // slows the object down).
    if (scope.stage) node.stage = scope.stage.id;
    else if (node.stage !== undefined) delete node.stage;
    if (scope.parent) node.parent = scope.parent.id;
    else if (node.parent !== undefined) delete node.parent;
    if (!scope.stage)
      problem(
        nodeOutsideStage,
        node.idSpan,
        `Node "${node.id}" is outside every stage: put it inside a \`with flow.stage(…)\`.`,
      );
    if (scope.branch) {
      problem(
        invalidBranch,
        node.idSpan,
        `Node "${node.id}" is directly inside branch "${scope.branch.node.id}": put it in a \`${scope.branch.variable}.case(…)\` or \`${scope.branch.variable}.otherwise()\`.`,
      );
      return;
    }
    scope.into?.push(node.id);
  }
}
