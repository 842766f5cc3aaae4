// Edges that end at one point of a node: ELK joins every edge without a port (control, branch) at one point of the
// target's side, and a back edge's loop may end where a forward edge does. Their arrowheads would lie on each other,
// and a cycle's red head or a dangling edge's hollow one would hide under a grey one (broken-procedure's `publish`).

import type { Box } from './edgeLabels';

type Point = { x: number; y: number };

/** How far apart along the side the arrowheads of edges that shared an end are drawn: more than a head's width. */
const GAP = 12;
/** Ends closer than this are one point to the eye. */
const SAME = 4;

/**
 * Moves the ends of edges that arrive at the same point of the same node apart along the side they enter, each later
 * edge one gap further towards the middle of that side. The last segment moves with its end, so a route stays
 * orthogonal; a straight two-point route gets a jog halfway.
 */
export function spreadSharedEnds(routes: Point[][], targets: (Box | undefined)[]): Point[][] {
  const taken: { target: Box; at: Point; count: number }[] = [];
  return routes.map((route, index) => {
    const target = targets[index];
    if (!target || route.length < 2) return route;
    const end = route[route.length - 1];
    const shared = taken.find(
      (item) => item.target === target && Math.abs(item.at.x - end.x) < SAME && Math.abs(item.at.y - end.y) < SAME,
    );
    if (!shared) {
      taken.push({ target, at: end, count: 1 });
      return route;
    }
    const shift = GAP * shared.count++;
    const before = route[route.length - 2];
    // The last segment runs across the side it enters: a vertical one enters the top or bottom, so the end moves in x.
    const vertical = Math.abs(before.x - end.x) < Math.abs(before.y - end.y);
    const axis = vertical ? 'x' : 'y';
    const middle = vertical ? target.x + target.width / 2 : target.y + target.height / 2;
    const delta = end[axis] <= middle ? shift : -shift;
    const moved = (point: Point): Point => ({ ...point, [axis]: point[axis] + delta });
    if (route.length === 2) {
      // A straight edge turns halfway to reach its moved end.
      const other = vertical ? 'y' : 'x';
      const half = (route[0][other] + end[other]) / 2;
      const bend = { ...route[0], [other]: half };
      return [route[0], bend, moved(bend), moved(end)];
    }
    return [...route.slice(0, -2), moved(before), moved(end)];
  });
}
