import type { Predicate } from '../../../parse/predicate/predicate';
import { nodesById, type Flow, type FlowNode } from './flow';
import { EVENTS, SOFT_EVENTS, type PredicateOwner } from './predicates';

// Where in the flow a tip or rule can apply: the nodes at which its `when` may hold, read from what is known at each
// (its stage and node, whether a loop is around it, the seams its owner sees) without any State value.

/** Three-valued: a predicate at a flow position is surely false, or may hold. */
type Maybe = boolean | undefined;

/**
 * The nodes where a predicate may hold: `stage` and `node` are known at each
 * node, `round` is null outside a loop (so every comparison with it is
 * false there), `event` ranges over the seams the owner sees; State values
 * are unknown, so anything about them may hold.
 */
export function positionsWhere(predicate: Predicate, owner: PredicateOwner, flow: Flow): FlowNode[] {
  const events = owner.kind === 'tip' || owner.kind === 'soft-rule' ? [...SOFT_EVENTS] : EVENTS;
  return flowPositions(flow)
    .filter(({ node, inLoop }) => {
      const known: Record<string, string[] | null> = {
        stage: node.stage ? [node.stage] : [],
        node: [node.id],
        event: events,
        round: inLoop ? null : [],
      };
      const evaluate = (item: Predicate): Maybe => {
        switch (item.kind) {
          case 'and': {
            const values = item.items.map(evaluate);
            return values.includes(false) ? false : values.every((value) => value === true) ? true : undefined;
          }
          case 'or': {
            const values = item.items.map(evaluate);
            return values.includes(true) ? true : values.every((value) => value === false) ? false : undefined;
          }
          case 'not': {
            const value = evaluate(item.operand);
            return value === undefined ? undefined : !value;
          }
          default: {
            const name = item.path.segments[0].name;
            const values = item.path.segments.length === 1 ? known[name] : undefined;
            if (values === undefined || values === null) return undefined;
            // `round` outside a loop is null: comparisons are false, and so is the bare path.
            if (name === 'round') return false;
            if (item.kind === 'truthy') return values.length > 0 ? undefined : false;
            const wanted =
              item.kind === 'in' ? item.values.map((value) => String(value.value)) : [String(item.value.value)];
            if (item.kind === 'compare' && item.op !== '=' && item.op !== '==')
              return item.op === '!=' ? (values.length === 1 ? values[0] !== wanted[0] : undefined) : undefined;
            const matches = values.filter((value) => wanted.includes(value));
            return matches.length === 0 ? false : matches.length === values.length ? true : undefined;
          }
        }
      };
      return evaluate(predicate) !== false;
    })
    .map(({ node }) => node);
}

const positionCache = new WeakMap<Flow, { node: FlowNode; inLoop: boolean }[]>();

/** Each node with whether a loop is around it: the same for every predicate of a package, so made once per flow. */
function flowPositions(flow: Flow): { node: FlowNode; inLoop: boolean }[] {
  let positions = positionCache.get(flow);
  if (!positions) {
    const byId = nodesById(flow);
    const inLoop = (node: FlowNode): boolean => {
      for (
        let parent = node.parent ? byId.get(node.parent) : undefined;
        parent;
        parent = parent.parent ? byId.get(parent.parent) : undefined
      )
        if (parent.kind === 'loop') return true;
      return false;
    };
    positions = flow.nodes.map((node) => ({ node, inLoop: inLoop(node) }));
    positionCache.set(flow, positions);
  }
  return positions;
}
