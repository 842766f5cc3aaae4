// Where an edge's label goes once the graph is laid out: beside its own route, over no node and no other label,
// inside the drawing.

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelRequest {
  text: string;
  width: number;
  height: number;
  points: { x: number; y: number }[];
}

/** Room kept between a label and a node or another label. */
const GAP = 2;
/** Where along a segment a label is tried, middle first. */
const ALONG = [0.5, 0.35, 0.65, 0.2, 0.8];

function overlaps(a: Box, b: Box): boolean {
  return (
    a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP
  );
}

/**
 * The places tried for a label on one segment: beside a vertical segment (right, then left of it), above or below a
 * horizontal one, at points along it from the middle out; then across it.
 */
function candidates(
  from: { x: number; y: number },
  to: { x: number; y: number },
  width: number,
  height: number,
): Box[] {
  const vertical = Math.abs(to.x - from.x) < Math.abs(to.y - from.y);
  const at = ALONG.map((t) => ({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t }));
  const beside = at.flatMap(({ x, y }) =>
    vertical
      ? [
          { x: x + 4, y: y - height / 2, width, height },
          { x: x - 4 - width, y: y - height / 2, width, height },
        ]
      : [
          { x: x - width / 2, y: y - height - 2, width, height },
          { x: x - width / 2, y: y + 2, width, height },
        ],
  );
  // Last, on the line itself (its background hides that much of the line, which reads as the line's own name).
  return [...beside, ...at.map(({ x, y }) => ({ x: x - width / 2, y: y - height / 2, width, height }))];
}

/** Whether `box` lies across the segment from `a` to `b` (an edge's line). */
function crossesLine(box: Box, a: { x: number; y: number }, b: { x: number; y: number }): boolean {
  return (
    Math.min(a.x, b.x) < box.x + box.width &&
    Math.max(a.x, b.x) > box.x &&
    Math.min(a.y, b.y) < box.y + box.height &&
    Math.max(a.y, b.y) > box.y
  );
}

/**
 * Places each label at the first free place along its route, longest segments first (where a label has the most
 * room and reads as part of the line): over no node and no other label, and where one is, across no other edge's
 * line (a label between two lines reads as the other's); only when no such place is left, across another line. A
 * label may widen or lengthen the drawing to the right or down (the caller grows it), never reach before its start. A
 * label with no free place is left out (`undefined`): the edge shows it on hover.
 */
export function placeLabels(requests: (LabelRequest | undefined)[], nodes: Box[]): (Box | undefined)[] {
  const placed: Box[] = [];
  const lines = requests.map((request) =>
    (request?.points ?? []).slice(1).map((to, index) => ({ from: request!.points[index], to })),
  );
  return requests.map((request, own) => {
    if (!request || request.points.length < 2) return undefined;
    const segments = [...lines[own]].sort(
      (a, b) =>
        Math.abs(b.to.x - b.from.x) +
        Math.abs(b.to.y - b.from.y) -
        (Math.abs(a.to.x - a.from.x) + Math.abs(a.to.y - a.from.y)),
    );
    const free = segments
      .flatMap((segment) => candidates(segment.from, segment.to, request.width, request.height))
      .filter(
        (box) =>
          box.x >= 0 &&
          box.y >= 0 &&
          !nodes.some((node) => overlaps(box, node)) &&
          !placed.some((other) => overlaps(box, other)),
      );
    const clear = (box: Box) =>
      lines.every((route, index) => index === own || route.every((line) => !crossesLine(box, line.from, line.to)));
    const box = free.find(clear) ?? free[0];
    if (box) placed.push(box);
    return box;
  });
}
