import type { LibraryViewJson, LibraryViewProblem, LibraryViewSkill, SkillList } from '../../server/src/protocol';
import { layoutLibrary, type LibraryLayout } from './libraryLayout';
import { vsCodeHost } from './host';
import type { LibraryHostMessage, LibraryPageMessage } from './protocol';
import { element, text } from './svg';
import { Viewport, type Transform } from './viewport';

// The library view: the workspace's skills as nodes, the mentions, links and compositions between them as edges, the
// library's problems on the skills they are in, and beside them the skill list the chosen client gives the agent.

interface Choices {
  folder: string;
  client: string;
  every: boolean;
  transform?: Transform;
}

/**
 * Past this many skills in the chosen folder only those with an edge or a problem are drawn (a graph of thousands of
 * lone boxes reads as nothing); the status says so, and a folder shows the rest.
 */
const DRAW_LIMIT = 300;
const ALL_FOLDERS = '';

const host = vsCodeHost<LibraryPageMessage, Choices>();
const svg = document.getElementById('graph') as unknown as SVGSVGElement;
const folderSelect = document.getElementById('folder') as HTMLSelectElement;
const clientSelect = document.getElementById('client') as HTMLSelectElement;
const everyBox = document.getElementById('every') as HTMLInputElement;
const search = document.getElementById('search') as HTMLInputElement;
const status = document.getElementById('status')!;
const tooltip = document.getElementById('tooltip')!;
const viewport = new Viewport(svg);

let library: LibraryViewJson | undefined;
let choices: Choices = host.getState() ?? { folder: ALL_FOLDERS, client: '', every: false };
let fitted = !!choices.transform;
if (choices.transform) viewport.transform = choices.transform;
let generation = 0;
/** What is drawn now, for Fit. */
let drawnLayout: LibraryLayout | undefined;
viewport.onChange(() => remember({ transform: viewport.transform }));

function remember(change: Partial<Choices>): void {
  choices = { ...choices, ...change };
  host.setState(choices);
}

const plural = (count: number, word: string) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;
const EDGE_TITLES: Record<string, string> = {
  tool: 'invokes (Skill(…))',
  slash: 'invokes (/name)',
  dollar: 'invokes ($name)',
  plugin: 'invokes (plugin:name)',
  link: 'links to',
  compose: 'composes',
};

function open(file: string, range: LibraryViewProblem['range']): void {
  host.postMessage({ type: 'open', file, range });
}

function worst(problems: LibraryViewProblem[]): string {
  if (problems.some((problem) => problem.severity === 'error')) return 'error';
  if (problems.some((problem) => problem.severity === 'warning')) return 'warning';
  return problems.length > 0 ? 'information' : '';
}

function showTooltip(event: MouseEvent, content: string): void {
  tooltip.textContent = content;
  tooltip.hidden = false;
  tooltip.style.left = `${Math.min(event.clientX + 12, window.innerWidth - 440)}px`;
  tooltip.style.top = `${event.clientY + 12}px`;
}

/** The folders of the library, each with its count of skills, for the filter. */
function showFolders(skills: LibraryViewSkill[]): void {
  const counts = new Map<string, number>();
  for (const skill of skills) counts.set(skill.folder, (counts.get(skill.folder) ?? 0) + 1);
  if (choices.folder !== ALL_FOLDERS && !counts.has(choices.folder)) remember({ folder: ALL_FOLDERS });
  folderSelect.replaceChildren(
    new Option(`All folders (${skills.length.toLocaleString('en')})`, ALL_FOLDERS),
    ...[...counts]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([folder, count]) => new Option(`${folder} (${count.toLocaleString('en')})`, folder)),
  );
  folderSelect.value = choices.folder;
}

/** The skills of the chosen folder, and which of them are drawn. */
function shownSkills(all: LibraryViewSkill[]): { inFolder: LibraryViewSkill[]; drawn: LibraryViewSkill[] } {
  const inFolder = all.filter((skill) => choices.folder === ALL_FOLDERS || skill.folder === choices.folder);
  if (inFolder.length <= DRAW_LIMIT) return { inFolder, drawn: inFolder };
  const linked = new Set(library!.edges.flatMap((edge) => [edge.from, edge.to]));
  const drawn = inFolder.filter((skill) => linked.has(skill.file) || skill.problems.length > 0).slice(0, DRAW_LIMIT);
  return { inFolder, drawn };
}

/** Measures a name as a node draws it (bold, in the editor's font), so that no box cuts its name. */
function measureLabels(): (label: string) => number {
  const probe = element('g', { class: 'node skill', visibility: 'hidden' }, svg);
  const label = text('', { class: 'label' }, probe);
  const widths = new Map<string, number>();
  return (content) => {
    if (!widths.has(content)) {
      label.textContent = content;
      widths.set(content, label.getComputedTextLength());
    }
    return widths.get(content)!;
  };
}

async function drawGraph(): Promise<void> {
  if (!library) return;
  const mine = ++generation;
  const { inFolder, drawn } = shownSkills(library.skills);
  const files = new Set(drawn.map((skill) => skill.file));
  const edges = library.edges.filter((edge) => files.has(edge.from) && files.has(edge.to));
  const layout = await layoutLibrary(drawn, edges, measureLabels());
  if (mine !== generation) return;
  render(layout);
  drawnLayout = layout;
  const problems = drawn.reduce((sum, skill) => sum + skill.problems.length, 0);
  status.textContent = [
    drawn.length === inFolder.length
      ? plural(drawn.length, 'skill')
      : `${drawn.length.toLocaleString('en')} of ${plural(inFolder.length, 'skill')} drawn (those with an edge or a problem)`,
    plural(edges.length, 'edge'),
    plural(problems, 'problem'),
  ].join(' · ');
  if (!fitted || !viewport.moved) {
    fitView();
    fitted = true;
  }
  highlightSearch();
}

function render(layout: LibraryLayout): void {
  svg.replaceChildren();
  const defs = element('defs', {}, svg);
  for (const kind of ['invokes', 'link', 'compose']) {
    const marker = element(
      'marker',
      { id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
      defs,
    );
    element('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrow ${kind}` }, marker);
  }
  const root = element('g', {}, svg);
  const names = new Map(library!.skills.map((skill) => [skill.file, skill.name]));
  for (const link of layout.links) {
    if (link.points.length < 2) continue;
    const kind = link.edge.kind === 'link' || link.edge.kind === 'compose' ? link.edge.kind : 'invokes';
    const group = element('g', { class: `edge ${kind}`, 'data-from': link.edge.from, 'data-to': link.edge.to }, root);
    const d = link.points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x},${point.y}`).join(' ');
    element('path', { d, class: 'hit' }, group);
    element('path', { d, class: 'line', 'marker-end': `url(#arrow-${kind})` }, group);
    const title = `${names.get(link.edge.from)} ${EDGE_TITLES[link.edge.kind]} ${names.get(link.edge.to)}${link.edge.count > 1 ? ` (${link.edge.count} times)` : ''}`;
    group.addEventListener('mousemove', (event) => showTooltip(event, title));
    group.addEventListener('mouseleave', () => (tooltip.hidden = true));
    group.addEventListener('click', () => open(link.edge.from, link.edge.range));
  }
  for (const placed of layout.skills) {
    const { skill } = placed;
    const mark = worst(skill.problems);
    const group = element(
      'g',
      {
        class: `node skill scope-${skill.scope}${mark ? ` has-${mark}` : ''}`,
        'data-file': skill.file,
        'data-name': skill.name,
        transform: `translate(${placed.x},${placed.y})`,
        tabindex: 0,
        role: 'button',
        'aria-label': `${skill.name}${skill.problems.length > 0 ? `, ${plural(skill.problems.length, 'problem')}` : ''}`,
      },
      root,
    );
    element('rect', { class: 'shape', width: placed.width, height: placed.height, rx: 6 }, group);
    text(placed.label, { class: 'label', x: 12, y: 18 }, group);
    text(skill.folder, { class: 'subtitle', x: 12, y: 34 }, group);
    if (skill.problems.length > 0) {
      element('circle', { class: `count ${mark}`, cx: placed.width - 2, cy: 2, r: 9 }, group);
      text(String(skill.problems.length), { class: 'count-text', x: placed.width - 2, y: 6 }, group);
    }
    const hover = [
      skill.name,
      skill.description,
      ...skill.problems.map((problem) => `${problem.severity}: ${problem.message} [${problem.code}]`),
    ]
      .filter(Boolean)
      .join('\n\n');
    group.addEventListener('mousemove', (event) => showTooltip(event, hover));
    group.addEventListener('mouseleave', () => (tooltip.hidden = true));
    const go = () => open(skill.file, skill.range);
    group.addEventListener('click', go);
    group.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') go();
    });
  }
  viewport.attach(root);
}

function highlightSearch(): void {
  const needle = search.value.trim().toLowerCase();
  for (const node of svg.querySelectorAll<SVGGElement>('.node')) {
    const found = needle !== '' && (node.dataset.name ?? '').toLowerCase().includes(needle);
    node.classList.toggle('found', found);
  }
  const first = svg.querySelector<SVGGElement>('.node.found');
  if (first) {
    const box = first.getBBox();
    const [x, y] = (first.getAttribute('transform') ?? '').match(/[-\d.]+/g)!.map(Number);
    viewport.reveal(x, y, box.width, box.height);
  }
}

/** The chosen client's list: each entry as it is listed, its size, the running total against the client's budget. */
function showList(): void {
  if (!library) return;
  const lists = library.lists;
  if (!lists.some((list) => list.client === choices.client)) remember({ client: lists[0]?.client ?? '' });
  clientSelect.replaceChildren(...lists.map((list) => new Option(list.client, list.client)));
  clientSelect.value = choices.client;
  everyBox.checked = choices.every;
  const list = lists.find((item) => item.client === choices.client);
  if (!list) return;
  const entries = list.entries.filter((entry) => choices.every || entry.installed);
  const total = entries.reduce((sum, entry) => sum + entry.size, 0);
  summarize(list, entries.length, total);
  const rows = document.getElementById('list')!;
  // Each entry opens its skill: looked up by file once, not searched for per entry (thousands of each).
  const skills = new Map(library.skills.map((skill) => [skill.file, skill]));
  let running = 0;
  rows.replaceChildren(
    ...entries.map((entry) => {
      running += entry.size;
      const row = document.createElement('li');
      row.className = list.budget !== undefined && running > list.budget ? 'entry left-out' : 'entry';
      row.dataset.file = entry.file;
      row.tabIndex = 0;
      const head = document.createElement('div');
      head.className = 'entry-head';
      const name = document.createElement('span');
      name.className = 'entry-name';
      name.textContent = entry.name;
      const size = document.createElement('span');
      size.className = 'entry-size';
      size.textContent = `${entry.size.toLocaleString('en')} · ${running.toLocaleString('en')}`;
      size.title = 'characters of this entry · of the list so far';
      head.append(name, size);
      const description = document.createElement('div');
      description.className = 'entry-description';
      description.textContent = entry.description + (entry.cut ? ' [cut here]' : '');
      row.append(head, description);
      const skill = skills.get(entry.file);
      const go = () => skill && open(skill.file, skill.range);
      row.addEventListener('click', go);
      row.addEventListener('keydown', (event) => event.key === 'Enter' && go());
      return row;
    }),
  );
}

function summarize(list: SkillList, count: number, total: number): void {
  const summary = document.getElementById('list-summary')!;
  const fill = document.getElementById('list-fill')!;
  const where = choices.every ? 'with every skill installed' : 'as installed here';
  if (list.budget === undefined) {
    const cut = list.entries.filter((entry) => entry.cut && (choices.every || entry.installed)).length;
    summary.textContent = `${list.client} lists ${plural(count, 'skill')} ${where}: ${plural(total, 'character')} of names and descriptions${cut > 0 ? `; ${plural(cut, 'description')} cut` : ''}.`;
    fill.style.width = '0';
    document.getElementById('list-bar')!.hidden = true;
    return;
  }
  document.getElementById('list-bar')!.hidden = false;
  const share = total / list.budget;
  summary.textContent = `${list.client} lists ${plural(count, 'skill')} ${where}: ${total.toLocaleString('en')} of ${list.budget.toLocaleString('en')} characters (${Math.round(share * 100)}%, ${list.why})${share > 1 ? '; the entries past it are left out' : ''}.`;
  fill.style.width = `${Math.min(100, share * 100)}%`;
  fill.classList.toggle('over', share > 1);
}

function showProblems(): void {
  const items = document.getElementById('problems')!;
  const all = library!.skills.flatMap((skill) => skill.problems.map((problem) => ({ skill, problem })));
  items.replaceChildren(
    ...all.map(({ skill, problem }) => {
      const item = document.createElement('li');
      item.className = `problem ${problem.severity}`;
      item.tabIndex = 0;
      item.textContent = `${skill.name}: ${problem.message}`;
      item.title = `${problem.code}, line ${problem.range.start.line + 1}`;
      item.addEventListener('click', () => open(skill.file, problem.range));
      item.addEventListener('keydown', (event) => event.key === 'Enter' && open(skill.file, problem.range));
      return item;
    }),
  );
  if (all.length === 0) items.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'None.' }));
}

folderSelect.addEventListener('change', () => {
  remember({ folder: folderSelect.value });
  fitted = false;
  void drawGraph();
});
clientSelect.addEventListener('change', () => {
  remember({ client: clientSelect.value });
  showList();
});
everyBox.addEventListener('change', () => {
  remember({ every: everyBox.checked });
  showList();
});
search.addEventListener('input', highlightSearch);
const fitView = () => drawnLayout && viewport.fit(drawnLayout.width, drawnLayout.height, 0.5, 'horizontal');
document.getElementById('zoom-in')!.addEventListener('click', () => viewport.zoom(1.2));
document.getElementById('zoom-out')!.addEventListener('click', () => viewport.zoom(1 / 1.2));
document.getElementById('fit')!.addEventListener('click', fitView);
// The preview's keys, except where a key is typed into a field.
document.addEventListener('keydown', (event) => {
  if ((event.target as Element).closest('input, select')) return;
  if (event.key === '+' || event.key === '=') viewport.zoom(1.2);
  if (event.key === '-') viewport.zoom(1 / 1.2);
  if (event.key === '0') fitView();
});

window.addEventListener('message', (event: MessageEvent<LibraryHostMessage>) => {
  if (event.data.type !== 'library') return;
  library = event.data.library;
  showFolders(library.skills);
  showList();
  showProblems();
  void drawGraph();
});
host.postMessage({ type: 'ready' });
