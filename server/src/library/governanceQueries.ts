import type { GraphNode, GraphRelationship, LibraryGraph, RelationshipType } from './libraryGraph';
import { appendTo } from '../listMap';

// The questions a team asks of its whole library, each answered two ways from the same graph: by its Cypher in a graph
// database the export was loaded into, and here, over the graph in memory (`skillgraph query`). The tests run both
// and compare: the Cypher in the docs is the one that is run.

export type Row = Record<string, string | number>;

export interface GovernanceQuery {
  name: string;
  question: string;
  /** Why a team asks it, and what each row means. */
  why: string;
  cypher: string;
  answer(graph: LibraryGraph): Row[];
}

/**
 * How far the path queries follow a procedure's steps: the bound Kùzu runs variable-length paths to, written into the
 * Cypher so every engine reads the same paths.
 */
export const PATH_BOUND = 30;

/** The graph with its relationships indexed by type and end, and its nodes by key. */
class IndexedGraph {
  readonly nodes = new Map<string, GraphNode>();
  private readonly outgoing = new Map<string, GraphRelationship[]>();
  private readonly incoming = new Map<string, GraphRelationship[]>();

  constructor(readonly graph: LibraryGraph) {
    for (const node of graph.nodes) this.nodes.set(node.key, node);
    for (const relationship of graph.relationships) {
      appendTo(this.outgoing, `${relationship.type} ${relationship.from}`, relationship);
      appendTo(this.incoming, `${relationship.type} ${relationship.to}`, relationship);
    }
  }

  out(type: RelationshipType, key: string): GraphRelationship[] {
    return this.outgoing.get(`${type} ${key}`) ?? [];
  }

  in(type: RelationshipType, key: string): GraphRelationship[] {
    return this.incoming.get(`${type} ${key}`) ?? [];
  }

  /** The nodes a path of 1 to PATH_BOUND relationships of `type` leads to from `key` (backwards: from them to it). */
  reachable(type: RelationshipType, key: string, backwards: boolean): GraphNode[] {
    const seen = new Set<string>();
    let level = [key];
    for (let hop = 0; hop < PATH_BOUND && level.length > 0; hop++) {
      const next: string[] = [];
      for (const at of level)
        for (const relationship of backwards ? this.in(type, at) : this.out(type, at)) {
          const other = backwards ? relationship.from : relationship.to;
          if (!seen.has(other)) {
            seen.add(other);
            next.push(other);
          }
        }
      level = next;
    }
    return [...seen].flatMap((found) => this.nodes.get(found) ?? []);
  }

  /** Each step of the library with the skill it is in. */
  *steps(): Generator<{ skill: GraphNode; step: GraphNode }> {
    for (const skill of this.graph.nodes)
      if (skill.label === 'Skill')
        for (const has of this.out('HAS_STEP', skill.key)) {
          const step = this.nodes.get(has.to);
          if (step) yield { skill, step };
        }
  }
}

/** Rows in the order of an ORDER BY over `columns` (a leading `-` sorts that column descending). */
function ordered(rows: Row[], ...columns: string[]): Row[] {
  return rows.sort((a, b) => {
    for (const column of columns) {
      const descending = column.startsWith('-');
      const name = descending ? column.slice(1) : column;
      const left = a[name];
      const right = b[name];
      if (left === right) continue;
      return (left < right ? -1 : 1) * (descending ? -1 : 1);
    }
    return 0;
  });
}

const stepRow = (skill: GraphNode, step: GraphNode): Row => ({
  skill: skill.properties.name as string,
  file: skill.key,
  step: step.properties.name as string,
});

export const GOVERNANCE_QUERIES: GovernanceQuery[] = [
  {
    name: 'unguarded-irreversible',
    question: 'Which steps act irreversibly with no approval or validation step before them?',
    why: 'A step that deletes, deploys, publishes, sends or pays cannot be taken back: a gate before it (a decision or confirmation step, or one that approves, reviews or validates) lets a person or a check stop it. Each row is such a step no gate leads to.',
    cypher: `MATCH (k:Skill)-[:HAS_STEP]->(x:Step) WHERE x.irreversible AND NOT x.gate AND NOT EXISTS { MATCH (g:Step)-[:NEXT*1..${PATH_BOUND}]->(x) WHERE g.gate } RETURN k.name AS skill, k.file AS file, x.name AS step ORDER BY file, step`,
    answer(graph) {
      const indexed = new IndexedGraph(graph);
      const rows: Row[] = [];
      for (const { skill, step } of indexed.steps())
        if (
          step.properties.irreversible &&
          !step.properties.gate &&
          !indexed.reachable('NEXT', step.key, true).some((before) => before.properties.gate)
        )
          rows.push(stepRow(skill, step));
      return ordered(rows, 'file', 'step');
    },
  },
  {
    name: 'routers-without-end',
    question: 'Which routers never reach an end step?',
    why: 'An AIP 0.5 router sends the run down one of its branches; a router from which no branch leads to an `end` step leaves every run it routes without a finish.',
    cypher: `MATCH (k:Skill)-[:HAS_STEP]->(r:Step {kind: 'router'}) WHERE NOT EXISTS { MATCH (r)-[:NEXT*1..${PATH_BOUND}]->(e:Step {kind: 'end'}) } RETURN k.name AS skill, k.file AS file, r.name AS step ORDER BY file, step`,
    answer(graph) {
      const indexed = new IndexedGraph(graph);
      const rows: Row[] = [];
      for (const { skill, step } of indexed.steps())
        if (
          step.properties.kind === 'router' &&
          !indexed.reachable('NEXT', step.key, false).some((after) => after.properties.kind === 'end')
        )
          rows.push(stepRow(skill, step));
      return ordered(rows, 'file', 'step');
    },
  },
  {
    name: 'missing-boundaries',
    question: 'Which AIP procedures say neither when not to use them nor what to avoid?',
    why: '`do_not_use_when` keeps an agent from picking a skill for a task it looks like but is not; `anti_patterns` name the mistakes a run must not make. Each row is an AIP skill missing one or both, with how many of each it has.',
    cypher:
      "MATCH (k:Skill) WHERE k.format STARTS WITH 'aip' AND (size(k.do_not_use_when) = 0 OR size(k.anti_patterns) = 0) RETURN k.name AS skill, k.file AS file, size(k.do_not_use_when) AS do_not_use_when, size(k.anti_patterns) AS anti_patterns ORDER BY file",
    answer(graph) {
      const rows: Row[] = [];
      for (const skill of graph.nodes) {
        if (skill.label !== 'Skill' || !String(skill.properties.format).startsWith('aip')) continue;
        const notWhen = (skill.properties.do_not_use_when as string[]).length;
        const avoid = (skill.properties.anti_patterns as string[]).length;
        if (notWhen === 0 || avoid === 0)
          rows.push({
            skill: skill.properties.name as string,
            file: skill.key,
            do_not_use_when: notWhen,
            anti_patterns: avoid,
          });
      }
      return ordered(rows, 'file');
    },
  },
  {
    name: 'shared-scripts',
    question: 'Which scripts are copied into more than one skill?',
    why: 'The same bytes under two skills are one piece of code to fix in two places. Each row is one copy: the script (by content hash), the skill holding it and the path it has there.',
    cypher:
      'MATCH (k:Skill)-[:HAS_SCRIPT]->(c:Script) WITH c, count(DISTINCT k) AS holders WHERE holders > 1 MATCH (k:Skill)-[h:HAS_SCRIPT]->(c) RETURN c.hash AS script, k.name AS skill, k.file AS file, h.path AS path ORDER BY script, file, path',
    answer(graph) {
      const indexed = new IndexedGraph(graph);
      const rows: Row[] = [];
      for (const script of graph.nodes) {
        if (script.label !== 'Script') continue;
        const copies = indexed.in('HAS_SCRIPT', script.key);
        if (new Set(copies.map((copy) => copy.from)).size < 2) continue;
        for (const copy of copies)
          rows.push({
            script: script.key,
            skill: indexed.nodes.get(copy.from)?.properties.name as string,
            file: copy.from,
            path: copy.properties.path as string,
          });
      }
      return ordered(rows, 'script', 'file', 'path');
    },
  },
  {
    name: 'shared-skills',
    question: 'Which skills do several others compose or invoke?',
    why: 'A skill many others hand work to is a shared sub-procedure: a change to it changes every caller. Each row is such a skill and how many skills call it, most called first.',
    cypher:
      'MATCH (a:Skill)-[:COMPOSES|INVOKES]->(b:Skill) WITH b, count(DISTINCT a) AS callers WHERE callers > 1 RETURN b.name AS skill, b.file AS file, callers ORDER BY callers DESC, file',
    answer(graph) {
      const indexed = new IndexedGraph(graph);
      const rows: Row[] = [];
      for (const skill of graph.nodes) {
        if (skill.label !== 'Skill') continue;
        const callers = new Set(
          [...indexed.in('COMPOSES', skill.key), ...indexed.in('INVOKES', skill.key)].map((call) => call.from),
        );
        if (callers.size > 1)
          rows.push({ skill: skill.properties.name as string, file: skill.key, callers: callers.size });
      }
      return ordered(rows, '-callers', 'file');
    },
  },
];
