import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { Span } from '../../../parse/text/lineIndex';
import { parseYamlRegion } from '../../../parse/yaml/yamlSyntax';
import type { FormatContext } from '../../../analysis/formatContext';
import type { Located, MetaPlan } from './metaPlan';
import { emitSteps, readForEach, type Invocation, type Phase } from './sopSteps';
import { defineRule } from '../../../checks/engine/rule';

export const invalidSop = defineRule({
  code: 'invalid_sop',
  category: 'metaskill',
  severity: 'error',
  summary: "A `meta_sop` body that OpenSquilla's SOP compiler rejects.",
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
});

interface Line {
  text: string;
  start: number;
}

/** A phase heading; its annotations run to the last `]`, so `[depends_on: [a, b]]` may nest a list. */
const PHASE = /^##\s+Phase\s+(\d+)\s*:\s*([^[]+?)\s*(?:\[(.*)\])?\s*$/;
const INVOCATION = /^(Run|Invoke)\s+`([A-Za-z0-9_-]+)`(?:\s+as\s+([A-Za-z_]+))?(?:\s+with\s*:)?\.?\s*$/;
const COMBINED = /^(Run|Invoke)\s+`([A-Za-z0-9_-]+)`(?:\s+as\s+([A-Za-z_]+))?\s*\.\s+Save\s+as\s+`([^`]+)`\s*\.?\s*$/;
const WITH_BULLET = /^-\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.+)$/;
const SAVE_AS = /^Save\s+as\s+`([^`]+)`\s*\.?\s*$/;
const FENCE = /^```([A-Za-z_][A-Za-z0-9_ ]*)?\s*$/;
const ANNOTATIONS = new Set(['parallel', 'parallel for_each', 'depends_on']);

function linesOf(text: string, from: number, to: number): Line[] {
  const lines: Line[] = [];
  let start = from;
  while (start < to) {
    let end = text.indexOf('\n', start);
    if (end === -1 || end > to) end = to;
    lines.push({ text: text.slice(start, end).replace(/\r$/, ''), start });
    start = end + 1;
  }
  return lines;
}

/** The span of `needle` inside a line, searched from `from`. */
function within(line: Line, needle: string, from = 0): Span {
  const at = line.text.indexOf(needle, from);
  return { start: line.start + Math.max(0, at), end: line.start + Math.max(0, at) + needle.length };
}

/** `name` written in backticks on a line (from `from`), located inside the backticks. */
function backticked(line: Line, name: string, from = 0): Located {
  const span = within(line, `\`${name}\``, from);
  return { value: name, span: { start: span.start + 1, end: span.end - 1 } };
}

/**
 * A `meta_sop` body read as OpenSquilla's SOP compiler reads it: `## Phase
 * N: Title [annotations]` headings; ``Run `skill` [as kind] with:`` lines,
 * `- key: value` bullets and ``Save as `id`.``; `yaml for_each` blocks. Each
 * phase's steps depend on every step of the phase before, unless a
 * `depends_on` annotation says otherwise. What the compiler rejects is an
 * `invalid_sop` error at its line.
 */
export function readSop(context: FormatContext, out: Diagnostic[]): MetaPlan {
  const { syntax, file } = context;
  const lines = linesOf(syntax.text, syntax.body.start, syntax.body.end);
  const fail = (span: Span, message: string) =>
    out.push(
      diagnostic(
        invalidSop,
        file,
        span,
        `${message} OpenSquilla's SOP compiler rejects the skill, which then does not load.`,
      ),
    );
  const phases: Phase[] = [];
  let current: Invocation | undefined;
  const finishInvocation = () => {
    if (current && !current.id) fail(current.skill.span, 'This invocation has no ``Save as `id`.`` line.');
    current = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.text.trim();
    const lineSpan = { start: line.start, end: line.start + line.text.length };
    const fence = FENCE.exec(line.text);
    if (fence) {
      let close = i + 1;
      while (close < lines.length && lines[close].text.trim() !== '```') close++;
      if ((fence[1] ?? '').trim() === 'yaml for_each') {
        const phase = phases[phases.length - 1];
        const content = { start: lines[i + 1]?.start ?? line.start, end: lines[close]?.start ?? syntax.body.end };
        if (!phase) fail(lineSpan, 'A `yaml for_each` block must follow a phase heading.');
        else if (!phase.forEach)
          fail(lineSpan, 'A `yaml for_each` block needs a `[parallel for_each: VAR]` annotation on its phase.');
        else readForEach(parseYamlRegion(syntax.text, content), phase, lineSpan, fail);
      }
      i = close;
      continue;
    }
    const heading = PHASE.exec(line.text);
    if (heading) {
      finishInvocation();
      phases.push(readHeading(line, heading, fail));
      continue;
    }
    const phase = phases[phases.length - 1];
    if (!phase || trimmed === '') continue;
    const combined = COMBINED.exec(trimmed);
    const invocation = combined ?? INVOCATION.exec(trimmed);
    if (/^(Run|Invoke|Call tool|Classify)\s+/.test(trimmed)) {
      if (current) fail(lineSpan, "A new invocation starts before the previous one's ``Save as `id`.`` line.");
      current = undefined;
      if (!invocation) {
        fail(
          lineSpan,
          /^(Call tool|Classify)/.test(trimmed)
            ? '`Call tool` and `Classify` are not supported in SOP form; use `Run` or `Invoke`.'
            : 'This line does not read as ``Run `skill` [as agent|skill_exec] with:``.',
        );
        continue;
      }
      const skill = backticked(line, invocation[2]);
      const kind = invocation[3]
        ? { value: invocation[3], span: within(line, invocation[3], line.text.indexOf(' as ')) }
        : undefined;
      if (kind && kind.value !== 'agent' && kind.value !== 'skill_exec')
        fail(kind.span, `Unknown kind \`${kind.value}\`: an SOP invocation runs \`as agent\` or \`as skill_exec\`.`);
      const next: Invocation = { skill, ...(kind ? { kind } : {}), args: [], span: lineSpan };
      phase.invocations.push(next);
      if (combined) next.id = backticked(line, combined[4], line.text.indexOf('Save'));
      else current = next;
      continue;
    }
    const bullet = WITH_BULLET.exec(trimmed);
    if (bullet) {
      if (!current) {
        fail(lineSpan, 'A `- key: value` argument outside an invocation block.');
        continue;
      }
      const indent = line.text.length - line.text.trimStart().length;
      const keySpan = within(line, bullet[1]);
      if (bullet[2].trim() === '|') {
        // A block argument: the more-indented lines below, dedented.
        const block: Line[] = [];
        while (
          i + 1 < lines.length &&
          (lines[i + 1].text.trim() === '' || lines[i + 1].text.length - lines[i + 1].text.trimStart().length > indent)
        )
          block.push(lines[++i]);
        while (block.length > 0 && block[block.length - 1].text.trim() === '') block.pop();
        const margin = Math.min(
          ...block
            .filter((item) => item.text.trim() !== '')
            .map((item) => item.text.length - item.text.trimStart().length),
        );
        let value = '';
        const offsets: number[] = [];
        block.forEach((item, n) => {
          const body = item.text.slice(Math.min(margin, item.text.length));
          for (let c = 0; c < body.length; c++) offsets.push(item.start + Math.min(margin, item.text.length) + c);
          value += body;
          if (n < block.length - 1) {
            offsets.push(item.start + item.text.length);
            value += '\n';
          }
        });
        const end =
          block.length > 0 ? block[block.length - 1].start + block[block.length - 1].text.length : lineSpan.end;
        offsets.push(end);
        current.args.push({
          key: bullet[1],
          keySpan,
          value,
          offsets,
          valueSpan: { start: within(line, '|').start, end },
        });
      } else {
        const raw = bullet[2].trim();
        const rawStart = line.start + line.text.indexOf(raw, line.text.indexOf(':') + 1);
        // `- key: \`{{ … }}\``: the backticks are for the reader, not part of the value.
        const quoted = raw.length >= 2 && raw.startsWith('`') && raw.endsWith('`');
        const value = quoted ? raw.slice(1, -1) : raw;
        const valueStart = rawStart + (quoted ? 1 : 0);
        const offsets = [...value].map((_, c) => valueStart + c);
        offsets.push(valueStart + value.length);
        current.args.push({
          key: bullet[1],
          keySpan,
          value,
          offsets,
          valueSpan: { start: rawStart, end: rawStart + raw.length },
        });
      }
      continue;
    }
    const save = SAVE_AS.exec(trimmed);
    if (save) {
      if (!current) {
        fail(lineSpan, '``Save as `id`.`` outside an invocation block.');
        continue;
      }
      current.id = backticked(line, save[1]);
      current.span = { start: current.span.start, end: lineSpan.end };
      current = undefined;
    }
  }
  finishInvocation();
  if (phases.length === 0) fail(context.frontmatterAnchor, 'The body has no `## Phase N: Title` heading.');
  for (const phase of phases)
    if (phase.invocations.length === 0)
      fail(phase.heading, `Phase ${phase.index} runs nothing: add a \`Run \`skill\`\` line.`);
  return { form: 'sop', steps: emitSteps(context, phases, fail) };
}

function readHeading(line: Line, heading: RegExpExecArray, fail: (span: Span, message: string) => void): Phase {
  const span = { start: line.start, end: line.start + line.text.length };
  const phase: Phase = { index: Number(heading[1]), heading: span, invocations: [] };
  const annotations = heading[3];
  if (annotations === undefined) return phase;
  const base = line.text.indexOf('[') + 1;
  let at = base;
  for (const raw of annotations.split(';')) {
    const item = raw.trim();
    const itemStart = line.start + at + raw.indexOf(item);
    at += raw.length + 1;
    if (item === '') continue;
    const colon = item.indexOf(':');
    const key = (colon === -1 ? item : item.slice(0, colon)).trim();
    const value = colon === -1 ? '' : item.slice(colon + 1).trim();
    const keySpan = { start: itemStart, end: itemStart + key.length };
    if (!ANNOTATIONS.has(key)) {
      fail(
        keySpan,
        ['when', 'force_skip', 'route'].includes(key)
          ? `The annotation \`${key}\` is not supported in SOP form.`
          : `Unknown annotation \`${key}\`; allowed: parallel, parallel for_each, depends_on.`,
      );
      continue;
    }
    if (key === 'parallel for_each') {
      if (!value) fail(keySpan, '`parallel for_each` needs a variable name: `[parallel for_each: section]`.');
      else phase.forEach = { variable: value, items: [] };
    }
    if (key === 'depends_on') {
      const listStart = itemStart + item.indexOf(value);
      phase.dependsOn = [...value.matchAll(/[A-Za-z0-9_-]+/g)].map((match) => ({
        value: match[0],
        span: { start: listStart + match.index!, end: listStart + match.index! + match[0].length },
      }));
    }
  }
  return phase;
}
