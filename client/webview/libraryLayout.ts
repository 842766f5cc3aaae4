import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import type { LibraryViewEdge, LibraryViewSkill } from '../../server/src/protocol';
import { shorten, textWidth } from './nodeMetrics';

// Where the library view draws each skill and each edge: ELK's layered layout, left to right, so a skill stands left
// of the skills it names; skills with no edge are packed in rows beside the rest.

export const SKILL_HEIGHT = 44;
const MIN_WIDTH = 140;
/** A name longer than this is cut (whole on hover). */
export const NAME_CHARS = 34;

export interface PlacedSkill {
  skill: LibraryViewSkill;
  /** The name as drawn. */
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedLink {
  edge: LibraryViewEdge;
  points: { x: number; y: number }[];
}

export interface LibraryLayout {
  skills: PlacedSkill[];
  links: PlacedLink[];
  width: number;
  height: number;
}

const elk = new ELK();

/** Lays the skills out; `labelWidth` measures a name as drawn (an estimate where nothing can be measured). */
export async function layoutLibrary(
  skills: LibraryViewSkill[],
  edges: LibraryViewEdge[],
  labelWidth: (label: string) => number = textWidth,
): Promise<LibraryLayout> {
  const labels = new Map(skills.map((skill) => [skill.file, shorten(skill.name, NAME_CHARS)]));
  const children: ElkNode[] = skills.map((skill) => ({
    id: skill.file,
    width: Math.max(MIN_WIDTH, Math.ceil(labelWidth(labels.get(skill.file)!)) + 28),
    height: SKILL_HEIGHT,
  }));
  const result: ElkNode = await elk.layout({
    id: 'library',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70',
      'elk.spacing.nodeNode': '24',
      'elk.spacing.componentComponent': '36',
      'elk.layered.thoroughness': '1',
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
    },
    children,
    edges: edges.map((edge, index) => ({ id: `edge${index}`, sources: [edge.from], targets: [edge.to] })),
  });
  const placed = new Map((result.children ?? []).map((child) => [child.id, child]));
  const routes = new Map((result.edges ?? []).map((edge) => [edge.id, edge.sections?.[0]]));
  return {
    skills: skills.map((skill) => {
      const child = placed.get(skill.file)!;
      return {
        skill,
        label: labels.get(skill.file)!,
        x: child.x ?? 0,
        y: child.y ?? 0,
        width: child.width ?? MIN_WIDTH,
        height: SKILL_HEIGHT,
      };
    }),
    links: edges.map((edge, index) => {
      const section = routes.get(`edge${index}`);
      return {
        edge,
        points: section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint] : [],
      };
    }),
    width: result.width ?? 0,
    height: result.height ?? 0,
  };
}
