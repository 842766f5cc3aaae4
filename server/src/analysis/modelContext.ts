import type { ModelContext } from '../protocol';
// What a runtime puts in front of the model at one point of a skill (skill+'s guided flow): asked of a format whose
// skills have such a runtime (Format.context), shown by `skillgraph context` and the editor's context view.

/** A rough size for budgeting: about four characters per token for English prose. */
export const CHARS_PER_TOKEN = 4;

/** The context as the CLI prints it: each part under a heading with its size, then what was left out. */
export function formatModelContext(context: ModelContext): string {
  const size = (chars: number, count: number) =>
    `${chars.toLocaleString('en')} chars · ~${count.toLocaleString('en')} tokens`;
  const lines = [
    `What the model sees in ${context.skill} at node "${context.at.node}" (stage ${context.at.stage ?? '—'}, event ${context.at.event ?? '—'}, round ${context.at.round ?? '—'})`,
    '',
  ];
  for (const item of context.parts)
    lines.push(
      `## ${item.title}${item.file ? ` — ${item.file}` : ''}  [${size(item.chars, item.tokens)}]`,
      item.text,
      '',
    );
  if (context.gates.length > 0)
    lines.push(
      '## Gates (code at the tool seam, not text)',
      ...context.gates.map((gate) => `- ${gate.id} (${gate.onFail}) — ${gate.file}`),
      '',
    );
  if (context.leftOut.length > 0)
    lines.push('## Left out', ...context.leftOut.map((item) => `- ${item.kind} ${item.id}: ${item.reason}`), '');
  lines.push(
    `Total: ${size(context.chars, context.tokens)}; tips ${context.tipChars} of ${context.tipBudget} characters (tokens estimated at ${CHARS_PER_TOKEN} characters each)`,
  );
  return lines.join('\n') + '\n';
}
