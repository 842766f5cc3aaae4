// Moving between nodes with the arrow keys: from the focused node to the nearest one that way.

/** Each arrow key's direction on screen. */
export const ARROWS: Record<string, [number, number]> = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The box nearest to `from` in `direction`, judged between centres: a box straight ahead beats one as near but off to
 * the side (being off the line counts twice); none when nothing lies that way.
 */
export function nearestInDirection<T extends Box>(boxes: T[], from: T, [dx, dy]: [number, number]): T | undefined {
  const centre = (box: Box) => [box.x + box.width / 2, box.y + box.height / 2];
  const [fx, fy] = centre(from);
  let best: T | undefined;
  let bestScore = Infinity;
  for (const candidate of boxes) {
    if (candidate === from) continue;
    const [cx, cy] = centre(candidate);
    const along = (cx - fx) * dx + (cy - fy) * dy;
    if (along <= 0) continue;
    const score = along + Math.abs((cx - fx) * dy - (cy - fy) * dx) * 2;
    if (score < bestScore) [best, bestScore] = [candidate, score];
  }
  return best;
}
