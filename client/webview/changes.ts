import type { ChangeLine, GraphChanges } from '../../server/src/protocol';

// The preview's "changes since a revision": the marks a change puts on the drawn graph (nodes and edges added,
// removed, renamed, changed or retyped, each with what changed in its tooltip), and the change as a list whose lines
// lead to what they are about. The server worked the change out; this only shows it.

const LINE_MARKS: Record<ChangeLine['mark'], string> = {
  added: '+',
  removed: '−',
  renamed: '→',
  changed: '~',
  retyped: '~',
  orphaned: '!',
  introduced: '!',
  fixed: '✓',
};

/** Marks each node and edge of the drawing the change touched: a class for its colour, its change for the tooltip. */
export function markChanges(svg: SVGSVGElement, changes: GraphChanges): void {
  for (const [id, mark] of Object.entries(changes.nodes)) {
    for (const node of svg.querySelectorAll(`.node[data-id="${CSS.escape(id)}"]`)) {
      node.classList.add('changed-node', `change-${mark.change}`);
      node.setAttribute('data-change', mark.text);
    }
  }
  for (const mark of changes.edges) {
    const selector = `.edge.${mark.kind}[data-from="${CSS.escape(mark.from)}"][data-to="${CSS.escape(mark.to)}"]`;
    for (const edge of svg.querySelectorAll(selector)) {
      if ((edge.getAttribute('data-label') ?? undefined) !== mark.label) continue;
      edge.classList.add('changed-edge', `change-${mark.change}`);
      edge.setAttribute('data-change', mark.text);
    }
  }
}

/** How much changed, in a few words for the status line: `2 added · 1 removed · 3 edges`. */
export function changeSummary(changes: GraphChanges): string {
  const counts = new Map<string, number>();
  for (const mark of Object.values(changes.nodes)) counts.set(mark.change, (counts.get(mark.change) ?? 0) + 1);
  const parts = [...counts].map(([change, count]) => `${count} ${change}`);
  if (changes.edges.length > 0) parts.push(`${changes.edges.length} edge${changes.edges.length === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(' · ') : 'no change';
}

/** Writes the change list into `list`; `pick` is told the line clicked. */
export function renderChangeList(list: HTMLElement, changes: GraphChanges, pick: (line: ChangeLine) => void): void {
  // Folded or not as the user left it: a new list comes with every edit.
  const open = list.querySelector('details')?.open ?? true;
  const details = document.createElement('details');
  details.open = open;
  const heading = document.createElement('summary');
  heading.className = 'changes-heading';
  const since =
    changes.revision === changes.commit.slice(0, changes.revision.length) ? '' : ` (${changes.commit.slice(0, 7)})`;
  heading.textContent = changes.existed
    ? `Changes since ${changes.revision}${since}: ${changeSummary(changes)}`
    : `New since ${changes.revision}${since}: the skill is not in that revision`;
  details.append(heading);
  const items = document.createElement('ul');
  for (const line of changes.lines) {
    const item = document.createElement('li');
    item.className = `change-line change-${line.mark}`;
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `${LINE_MARKS[line.mark]} ${line.text}`;
    button.disabled = !line.node && !line.at;
    button.addEventListener('click', () => pick(line));
    item.append(button);
    items.append(item);
  }
  details.append(items);
  list.replaceChildren(details);
}
