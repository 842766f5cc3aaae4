// A route for an edge that goes back against the layout's direction (a cycle, a loop's return): a short loop beside
// its two nodes instead of ELK's, which leaves the source on its far side and walks around whatever lies between.

import type { Box } from './edgeLabels';

type Point = { x: number; y: number };

/** How far beside its nodes a back edge runs. */
const OFFSET = 18;

/** Whether the segment from `a` to `b` (horizontal or vertical) passes through `box`. */
function crosses(a: Point, b: Point, box: Box): boolean {
  const left = Math.min(a.x, b.x);
  const right = Math.max(a.x, b.x);
  const top = Math.min(a.y, b.y);
  const bottom = Math.max(a.y, b.y);
  return left < box.x + box.width && right > box.x && top < box.y + box.height && bottom > box.y;
}

/** Whether `target` lies wholly before `source` in the layout's direction: an edge between them goes back. */
export function goesBack(source: Box, target: Box, down: boolean): boolean {
  return down ? target.y + target.height <= source.y : target.x + target.width <= source.x;
}

/**
 * A back edge from `source` to `target` drawn as a loop on one side of both: out of the source's side, along a lane
 * just past the outer of the two, into the target's side. Top-down the left side is tried first, then the right;
 * left-to-right, above, then below. Undefined when both lanes pass through another node or leave the drawing (ELK's
 * route stays).
 */
export function backEdgeRoute(
  source: Box,
  target: Box,
  others: Box[],
  bounds: { width: number; height: number },
  down: boolean,
): Point[] | undefined {
  // Worked out top-down; left-to-right is the same with the axes swapped.
  const point = (item: Point): Point => (down ? item : { x: item.y, y: item.x });
  const box = (item: Box): Box => (down ? item : { x: item.y, y: item.x, width: item.height, height: item.width });
  const [from, to] = [box(source), box(target)];
  for (const before of [true, false]) {
    const lane = before ? Math.min(from.x, to.x) - OFFSET : Math.max(from.x + from.width, to.x + to.width) + OFFSET;
    const sy = from.y + from.height / 2;
    const ty = to.y + Math.min(to.height / 2, 20);
    const points = [
      { x: before ? from.x : from.x + from.width, y: sy },
      { x: lane, y: sy },
      { x: lane, y: ty },
      { x: before ? to.x : to.x + to.width, y: ty },
    ].map(point);
    const blocked = others.some((other) => points.slice(1).some((end, index) => crosses(points[index], end, other)));
    const inside = points.every((at) => at.x >= 0 && at.y >= 0 && at.x <= bounds.width && at.y <= bounds.height);
    if (inside && !blocked) return points;
  }
  return undefined;
}
