/** What the preview page draws, measured on screen: the boxes, texts and routes the geometry tests judge. */
export interface Drawing {
  /** Texts of a node drawn shortened (with an ellipsis), with the width of their node in drawing units. */
  cutTexts: { node: string; shown: string; nodeWidth: number }[];
  /** Each edge's route length and the orthogonal distance between its ends, in drawing units. */
  edges: { id: string; length: number; direct: number; stray: number }[];
  /** Data edges (between two ports) drawn without a label. */
  unlabelledData: string[];
  violations: {
    textsOutside: string[];
    labelsOverNodes: string[];
    labelsOutside: string[];
    labelsOverLabels: string[];
    /** Labels lying across another edge's line (allowed when no place clear of lines is left; counted). */
    labelsAcrossLines: string[];
    overviewOverNodes: string[];
    clusterTextsCut: string[];
  };
}

/**
 * Measures the drawing in the page. A source text rather than a function, so what runs in the browser is exactly
 * this (a compiled function would carry the test runner's helpers with it).
 */
export const measureDrawing = `(() => {
  const rect = (element) => element.getBoundingClientRect();
  const overlap = (a, b, margin = 0) =>
    a.left < b.right - margin && b.left < a.right - margin && a.top < b.bottom - margin && b.top < a.bottom - margin;
  const inside = (a, b, margin = 1) =>
    a.left >= b.left - margin && a.right <= b.right + margin && a.top >= b.top - margin && a.bottom <= b.bottom + margin;
  const describe = (r) => Math.round(r.left) + ',' + Math.round(r.top) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
  const viewport = document.querySelector('#graph .viewport');
  const scale = viewport.transform.baseVal.consolidate().matrix.a;
  const nodes = [...document.querySelectorAll('#graph .node')].map((node) => ({
    id: node.getAttribute('data-id'),
    element: node,
    // A shape may be drawn in parts (a header and a body): its box holds them all.
    box: [...node.querySelectorAll('.shape:not(.stacked)')].map(rect).reduce((a, b) => ({
      left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right),
      bottom: Math.max(a.bottom, b.bottom), width: Math.max(a.right, b.right) - Math.min(a.left, b.left),
    })),
  }));
  const violations = {
    textsOutside: [], labelsOverNodes: [], labelsOutside: [], labelsOverLabels: [], labelsAcrossLines: [], overviewOverNodes: [],
    clusterTextsCut: [],
  };
  const cutTexts = [];
  for (const node of nodes) {
    for (const text of node.element.querySelectorAll('text')) {
      if (text.closest('.problem-mark, .broken-stub') || text.classList.contains('loop-mark')) continue;
      if (!inside(rect(text), node.box)) violations.textsOutside.push(node.id + ': "' + text.textContent + '"');
      if (text.textContent.includes('\\u2026'))
        cutTexts.push({ node: node.id, shown: text.textContent, nodeWidth: node.box.width / scale });
    }
  }
  // The drawing as laid out (what Fit frames and an export draws): a label belongs inside it.
  const matrix = viewport.getScreenCTM();
  const bounds = {
    left: matrix.e, top: matrix.f,
    right: matrix.e + Number(viewport.getAttribute('data-width')) * scale,
    bottom: matrix.f + Number(viewport.getAttribute('data-height')) * scale,
  };
  const labels = [...document.querySelectorAll('#graph .edge')].flatMap((edge) => {
    const background = edge.querySelector('.edge-label-bg');
    return background ? [{ edge, id: edge.getAttribute('data-from') + '>' + edge.getAttribute('data-to') + ' "' + edge.querySelector('.edge-label').textContent + '"', box: rect(background) }] : [];
  });
  // Each edge's line, as screen segments, to tell a label lying across another edge's line.
  const ctm = viewport.getScreenCTM();
  const lines = [...document.querySelectorAll('#graph .edge')].map((edge) => {
    const points = (edge.querySelector('.line').getAttribute('d') || '').split(/[ML]/).map((pair) => pair.trim())
      .filter(Boolean).map((pair) => pair.split(',').map(Number))
      .map(([x, y]) => [ctm.e + x * scale, ctm.f + y * scale]);
    return { edge, segments: points.slice(1).map((to, index) => [points[index], to]) };
  });
  labels.forEach((label, index) => {
    for (const line of lines) {
      if (line.edge === label.edge) continue;
      const across = line.segments.some(([a, b]) =>
        Math.min(a[0], b[0]) < label.box.right - 1 && Math.max(a[0], b[0]) > label.box.left + 1 &&
        Math.min(a[1], b[1]) < label.box.bottom - 1 && Math.max(a[1], b[1]) > label.box.top + 1);
      if (across) violations.labelsAcrossLines.push(label.id + ' across ' + line.edge.getAttribute('data-from') + '>' + line.edge.getAttribute('data-to'));
    }
    for (const node of nodes) if (overlap(label.box, node.box, 0.5)) violations.labelsOverNodes.push(label.id + ' over ' + node.id);
    if (!inside(label.box, bounds)) violations.labelsOutside.push(label.id + ' at ' + describe(label.box));
    for (const other of labels.slice(index + 1))
      if (overlap(label.box, other.box, 0.5)) violations.labelsOverLabels.push(label.id + ' and ' + other.id);
  });
  const overview = document.getElementById('overview');
  if (overview && !overview.hasAttribute('hidden')) {
    // What of a node is in view: the drawing's own edge hides the rest, not the overview.
    const box = rect(overview);
    const view = rect(document.getElementById('graph'));
    for (const node of nodes) {
      const shown = {
        left: Math.max(node.box.left, view.left), right: Math.min(node.box.right, view.right),
        top: Math.max(node.box.top, view.top), bottom: Math.min(node.box.bottom, view.bottom),
      };
      if (shown.left < shown.right && shown.top < shown.bottom && overlap(box, shown))
        violations.overviewOverNodes.push(node.id);
    }
  }
  for (const cluster of document.querySelectorAll('#graph .cluster')) {
    for (const text of cluster.querySelectorAll('text'))
      if (text.textContent.includes('\\u2026')) violations.clusterTextsCut.push(cluster.getAttribute('data-group') + ': "' + text.textContent + '"');
  }
  const edges = [...document.querySelectorAll('#graph .edge .line')].map((line, index) => {
    const points = (line.getAttribute('d') || '').split(/[ML]/).map((pair) => pair.trim()).filter(Boolean)
      .map((pair) => pair.split(',').map(Number));
    let length = 0;
    for (let i = 1; i < points.length; i++)
      length += Math.abs(points[i][0] - points[i - 1][0]) + Math.abs(points[i][1] - points[i - 1][1]);
    const [first, last] = [points[0], points[points.length - 1]];
    const edge = line.closest('.edge');
    const xs = points.map((point) => point[0]);
    const ys = points.map((point) => point[1]);
    // How far the route strays outside the box its two ends span.
    const stray =
      Math.max(0, Math.min(first[0], last[0]) - Math.min(...xs)) + Math.max(0, Math.max(...xs) - Math.max(first[0], last[0])) +
      Math.max(0, Math.min(first[1], last[1]) - Math.min(...ys)) + Math.max(0, Math.max(...ys) - Math.max(first[1], last[1]));
    return {
      id: edge.getAttribute('data-from') + '>' + edge.getAttribute('data-to') + '#' + index,
      length,
      direct: Math.abs(last[0] - first[0]) + Math.abs(last[1] - first[1]),
      stray,
    };
  });
  const unlabelledData = [...document.querySelectorAll('#graph .edge.data')]
    .filter((edge) => !edge.querySelector('.edge-label'))
    .map((edge) => edge.getAttribute('data-from') + '>' + edge.getAttribute('data-to') + ' ' + edge.getAttribute('data-label'));
  return { cutTexts, edges, unlabelledData, violations };
})()`;
