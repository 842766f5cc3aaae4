import type { EdgeChange } from './edgeChanges';
import { type FindingChange, type GraphDiff, type NodeChange, type OrphanedInput, type PortChange } from './graphDiff';

// A change to a library of skills, written for a terminal (text) or a program (json); the pull request's form is
// diffMarkdown.ts.

/** One skill's change: where it is, and its revisions' content hashes (absent on the side where it does not exist). */
export interface SkillDiff {
  /** The skill's folder, relative to the repository (or the folder compared). */
  path: string;
  hashBefore?: string;
  hashAfter?: string;
  /** The skill's files added, removed and changed (paths relative to its folder). */
  files: { added: string[]; removed: string[]; changed: string[] };
  diff: GraphDiff;
}

/** The skill's files added, removed and changed, a line each. */
export function fileLines(skill: SkillDiff): string[] {
  return [
    ...skill.files.added.map((file) => `file ${file} added`),
    ...skill.files.removed.map((file) => `file ${file} removed`),
    ...skill.files.changed.map((file) => `file ${file} changed`),
  ];
}

const MARK: Record<NodeChange['change'], string> = { added: '+', removed: '-', renamed: '>', changed: '~' };
/** A retyped edge is marked as a changed node is: it is there before and after. */
const EDGE_MARK: Record<EdgeChange['change'], string> = { added: '+', removed: '-', retyped: '~' };

function portText(port: PortChange): string {
  if (port.change === 'retyped')
    return `${port.direction} "${port.name}" retyped ${port.before ?? '?'} → ${port.after ?? '?'}`;
  const type = port.change === 'added' ? port.after : port.before;
  return `${port.direction} "${port.name}"${type ? `: ${type}` : ''} ${port.change}`;
}

/** What happened to a node, in a line. */
export function nodeText(node: NodeChange): string {
  const name = node.change === 'renamed' ? `${node.from} → ${node.id}` : node.id;
  const what = [...node.details, ...node.ports.map(portText)];
  return `${node.change} ${node.kind} ${name}${what.length > 0 ? `: ${what.join('; ')}` : ''}`;
}

/** What happened to an edge, in a line. */
export function edgeText(edge: EdgeChange): string {
  const value = edge.label !== undefined ? ` ${edge.label}${edge.type ? `: ${edge.type}` : ''}` : '';
  const retyped = edge.change === 'retyped' ? ` (was ${edge.before ?? 'untyped'})` : '';
  return `${edge.change} ${edge.kind} edge ${edge.from} → ${edge.to}${value}${retyped}`;
}

/** An input left without its producer, in a line. */
export function orphanText(item: OrphanedInput): string {
  return `${item.node} input "${item.input}" has no producer any more (it was ${item.producer})`;
}

/** A finding introduced or fixed, in a line, with where it is. */
export function findingText(item: FindingChange): string {
  const problem = item.problem;
  const at = `${problem.file}:${problem.range.start.line + 1}:${problem.range.start.character + 1}`;
  return `${item.change} ${problem.severity} ${problem.code} ${at} ${problem.message}`;
}

/** How many of each kind of change, in a line. */
function counts(diff: GraphDiff): string {
  const of = (items: unknown[], one: string, many = `${one}s`) =>
    items.length > 0 ? [`${items.length} ${items.length === 1 ? one : many}`] : [];
  return [
    ...of(
      diff.nodes.filter((node) => node.change !== 'changed'),
      'node added, removed or renamed',
      'nodes added, removed or renamed',
    ),
    ...of(
      diff.nodes.filter((node) => node.change === 'changed'),
      'node changed',
      'nodes changed',
    ),
    ...of(diff.edges, 'edge changed', 'edges changed'),
    ...of(diff.orphaned, 'input left without its producer', 'inputs left without their producers'),
    ...of(
      diff.findings.filter((item) => item.change === 'introduced'),
      'finding introduced',
      'findings introduced',
    ),
    ...of(
      diff.findings.filter((item) => item.change === 'fixed'),
      'finding fixed',
      'findings fixed',
    ),
  ].join(', ');
}

/**
 * How many of each kind of change; for a skill with none in its graph or findings, what there is to say instead: an
 * added or removed one brought or took its files (its graph had no step), another changed only files.
 */
export function summary(skill: SkillDiff): string {
  const counted = counts(skill.diff);
  if (counted) return counted;
  const files = (count: number) => `${count} file${count === 1 ? '' : 's'}`;
  if (skill.hashBefore === undefined) return `${files(skill.files.added.length)}, no steps or findings`;
  if (skill.hashAfter === undefined) return `${files(skill.files.removed.length)}, no steps or findings`;
  return 'no change to its graph or findings';
}

/** The skill's folder, its format (both when it changed) and whether it was added or removed. */
export function heading(skill: SkillDiff): string {
  const diff = skill.diff;
  const format = diff.formatBefore ? `${diff.formatBefore} → ${diff.skill.format}` : diff.skill.format;
  const state = skill.hashBefore === undefined ? ', added' : skill.hashAfter === undefined ? ', removed' : '';
  return `${skill.path} (${format}${state})`;
}

/** The change for a terminal: a line per skill, then a line per change. */
export function diffText(skills: SkillDiff[]): string {
  if (skills.length === 0) return 'No skill changed.\n';
  return skills
    .map((skill) => {
      const diff = skill.diff;
      const lines = [`${heading(skill)}: ${summary(skill)}`];
      for (const line of fileLines(skill)) lines.push(`  · ${line}`);
      for (const node of diff.nodes) lines.push(`  ${MARK[node.change]} ${nodeText(node)}`);
      for (const edge of diff.edges) lines.push(`  ${EDGE_MARK[edge.change]} ${edgeText(edge)}`);
      for (const item of diff.orphaned) lines.push(`  ! ${orphanText(item)}`);
      for (const item of diff.findings)
        lines.push(`  ${item.change === 'introduced' ? '!' : '✓'} ${findingText(item)}`);
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}
