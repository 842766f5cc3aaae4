import type { ModelContext } from '../../server/src/protocol';
import { vsCodeHost } from './host';
import type { ContextHostMessage, ContextNode, ContextPageMessage } from './protocol';

const host = vsCodeHost<ContextPageMessage>();
const form = document.getElementById('position') as HTMLFormElement;
const nodeSelect = document.getElementById('node') as HTMLSelectElement;
const eventSelect = document.getElementById('event') as HTMLSelectElement;
const roundInput = document.getElementById('round') as HTMLInputElement;
const stateInput = document.getElementById('state') as HTMLTextAreaElement;
const formError = document.getElementById('form-error')!;
const summary = document.getElementById('summary')!;
const bar = document.getElementById('bar')!;
const parts = document.getElementById('parts')!;
const gates = document.getElementById('gates')!;
const leftOut = document.getElementById('left-out')!;

function create<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  if (className) element.className = className;
  return element;
}

function showNodes(nodes: ContextNode[], selected: string): void {
  if (
    nodeSelect.options.length !== nodes.length ||
    [...nodeSelect.options].some((option, index) => option.value !== nodes[index].id)
  ) {
    nodeSelect.replaceChildren(
      ...nodes.map((node) => {
        const option = create('option', `${node.stage ? `${node.stage} › ` : ''}${node.id} (${node.kind})`);
        option.value = node.id;
        return option;
      }),
    );
  }
  nodeSelect.value = selected;
}

const size = (chars: number, tokens: number) =>
  `${chars.toLocaleString('en')} chars · ~${tokens.toLocaleString('en')} tokens`;

function show(context: ModelContext): void {
  formError.textContent = '';
  // The State box shows the whole State used, so the defaults are there to edit.
  if (document.activeElement !== stateInput) stateInput.value = JSON.stringify(context.state, null, 2);
  summary.textContent = `${size(context.chars, context.tokens)} at "${context.at.node}" (stage ${context.at.stage ?? '—'}, event ${context.at.event ?? '—'}, round ${context.at.round ?? '—'}) · tips ${context.tipChars} of ${context.tipBudget} characters`;
  // One bar, one segment per part, as wide as its share of the whole.
  bar.replaceChildren(
    ...context.parts.map((part) => {
      const segment = create('span', undefined, `segment ${part.kind}`);
      segment.style.width = `${context.chars > 0 ? (100 * part.chars) / context.chars : 0}%`;
      segment.title = `${part.title}: ${size(part.chars, part.tokens)}`;
      return segment;
    }),
  );
  parts.replaceChildren(
    ...context.parts.map((part) => {
      const section = create('section', undefined, `part ${part.kind}`);
      const heading = create('h2', part.title);
      if (part.file) {
        const link = create('a', part.file, 'file');
        link.href = '#';
        link.addEventListener('click', (event) => {
          event.preventDefault();
          host.postMessage({ type: 'open', file: part.file! });
        });
        heading.append(' — ', link);
      }
      heading.append(create('span', size(part.chars, part.tokens), 'size'));
      section.append(heading, create('pre', part.text));
      return section;
    }),
  );
  gates.hidden = context.gates.length === 0;
  gates
    .querySelector('ul')!
    .replaceChildren(
      ...context.gates.map((gate) =>
        create(
          'li',
          `${gate.id} (${gate.onFail}) — ${gate.file}: checked by code at the tool seam, not shown to the model`,
        ),
      ),
    );
  leftOut.hidden = context.leftOut.length === 0;
  leftOut
    .querySelector('ul')!
    .replaceChildren(...context.leftOut.map((item) => create('li', `${item.kind} ${item.id}: ${item.reason}`)));
}

function compute(): void {
  let state: unknown;
  try {
    state = stateInput.value.trim() === '' ? {} : JSON.parse(stateInput.value);
  } catch (error) {
    formError.textContent = `The State is not JSON: ${(error as Error).message}`;
    return;
  }
  if (state === null || typeof state !== 'object' || Array.isArray(state)) {
    formError.textContent = 'The State is a JSON object of field values.';
    return;
  }
  formError.textContent = '';
  const round = Number(roundInput.value);
  host.postMessage({
    type: 'compute',
    node: nodeSelect.value,
    state: state as Record<string, unknown>,
    ...(eventSelect.value ? { event: eventSelect.value } : {}),
    ...(round >= 1 ? { round } : {}),
  });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  compute();
});
nodeSelect.addEventListener('change', compute);
eventSelect.addEventListener('change', compute);
stateInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    compute();
  }
});

window.addEventListener('message', (event: MessageEvent<ContextHostMessage>) => {
  const message = event.data;
  if (message.type === 'context') {
    showNodes(message.nodes, message.context.at.node);
    show(message.context);
  } else {
    showNodes(message.nodes, message.node);
    formError.textContent = message.message;
  }
});

host.postMessage({ type: 'ready' });
