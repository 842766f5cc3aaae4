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
  for (const before of [true, false]) {
    let points: Point[];
    if (down) {
      const lane = before
        ? Math.min(source.x, target.x) - OFFSET
        : Math.max(source.x + source.width, target.x + target.width) + OFFSET;
      const sx = before ? source.x : source.x + source.width;
      const tx = before ? target.x : target.x + target.width;
      const sy = source.y + source.height / 2;
      const ty = target.y + Math.min(target.height / 2, 20);
      points = [
        { x: sx, y: sy },
        { x: lane, y: sy },
        { x: lane, y: ty },
        { x: tx, y: ty },
      ];
    } else {
      const lane = before
        ? Math.min(source.y, target.y) - OFFSET
        : Math.max(source.y + source.height, target.y + target.height) + OFFSET;
      const sy = before ? source.y : source.y + source.height;
      const ty = before ? target.y : target.y + target.height;
      const sx = source.x + source.width / 2;
      const tx = target.x + Math.min(target.width / 2, 40);
      points = [
        { x: sx, y: sy },
        { x: sx, y: lane },
        { x: tx, y: lane },
        { x: tx, y: ty },
      ];
    }
    const blocked = others.some((box) => points.slice(1).some((point, index) => crosses(points[index], point, box)));
    const inside = points.every(
      (point) => point.x >= 0 && point.y >= 0 && point.x <= bounds.width && point.y <= bounds.height,
    );
    if (inside && !blocked) return points;
  }
  return undefined;
}
