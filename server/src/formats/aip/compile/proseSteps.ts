import type { Span } from '../../../parse/text/lineIndex';
import type { Fence, SkillFileSyntax } from '../../../parse/markdown/skillFile';

/** A step found in prose: its title, its Markdown, and where it was written. */
export interface ProseStep {
  title: string;
  /** The step's Markdown without its marker (list number or heading), fenced code included. */
  text: string;
  span: Span;
}

/** How the steps were found, for the report: the prose's own structure, from strongest to weakest. */
export type StepSource = 'step headings' | 'numbered list' | 'first/then sentences' | 'whole body';

export interface ProseOutline {
  steps: ProseStep[];
  source: StepSource;
  /** The body's first paragraph (what the skill is for, in most skills). */
  lead?: string;
  /** Bullets and lines outside the steps, under their nearest heading. */
  loose: { heading: string; text: string; span: Span }[];
  /** The sections no step lies in (Output, Troubleshooting, notes for an agent…): heading, Markdown, where. */
  sections: { heading: string; text: string; span: Span }[];
  fences: Fence[];
}

interface Line {
  text: string;
  start: number;
  end: number;
  inFence: boolean;
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const STEP_HEADING = /^(?:(?:step|phase|stage)\s*\d+\s*[:.)\-\u2014\u2013]?|\d+[.)])\s*(.+)$/i;
const ORDERED_ITEM = /^( {0,3})(\d{1,3})[.)]\s+(.*)$/;
const PROCESS_HEADING = /\b(steps?|process|procedure|workflow|instructions|how to|usage|checklist)\b/i;
const SEQUENCE_WORD = /^(?:first|then|next|after that|afterwards|finally|lastly)\b[,:]?\s*/i;

function bodyLines(syntax: SkillFileSyntax): Line[] {
  const lines: Line[] = [];
  // Fences are in text order: one pointer follows them down the body.
  let fence = 0;
  let start = syntax.body.start;
  while (start < syntax.body.end) {
    let end = syntax.text.indexOf('\n', start);
    if (end === -1 || end > syntax.body.end) end = syntax.body.end;
    while (fence < syntax.fences.length && (syntax.fences[fence].close?.end ?? syntax.body.end) <= start) fence++;
    const inFence = fence < syntax.fences.length && syntax.fences[fence].open.start <= start;
    lines.push({ text: syntax.text.slice(start, end).replace(/\r$/, ''), start, end, inFence });
    start = end + 1;
  }
  return lines;
}

/** An item's continuation lines moved left by their common indent (the first line has lost its marker already). */
function dedent(text: string): string {
  const [first, ...rest] = text.split('\n');
  const margin = Math.min(
    ...rest.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length),
  );
  return [first, ...rest.map((line) => line.slice(Math.min(margin, line.length - line.trimStart().length)))].join('\n');
}

const spanText = (syntax: SkillFileSyntax, span: Span) => syntax.text.slice(span.start, span.end).trim();

/** `## Step 1: …` / `### 2. …` headings: each a step, down to the next heading of the same or a higher level. */
function stepHeadings(syntax: SkillFileSyntax, lines: Line[]): ProseStep[] {
  const headings = lines.flatMap((line, index) => {
    const match = line.inFence ? null : HEADING.exec(line.text);
    return match ? [{ index, level: match[1].length, title: match[2] }] : [];
  });
  const steps: ProseStep[] = [];
  for (const [n, heading] of headings.entries()) {
    const step = STEP_HEADING.exec(heading.title);
    if (!step) continue;
    const next = headings.slice(n + 1).find((later) => later.level <= heading.level);
    const end = next ? lines[next.index].start : syntax.body.end;
    const span = { start: lines[heading.index].start, end };
    steps.push({ title: step[1], text: spanText(syntax, { start: lines[heading.index].end, end }), span });
  }
  return steps;
}

/**
 * The ordered lists of the body (outside fences), each item with its continuation lines, and the heading above the
 * list.
 */
function orderedLists(syntax: SkillFileSyntax, lines: Line[]): { heading: string; items: ProseStep[] }[] {
  const lists: { heading: string; items: ProseStep[] }[] = [];
  let heading = '';
  let current: { heading: string; items: ProseStep[] } | undefined;
  let item: { start: number; end: number; first: string } | undefined;
  const closeItem = () => {
    if (item && current)
      current.items.push({
        title: item.first,
        text: dedent(spanText(syntax, { start: item.start, end: item.end }).replace(/^\d{1,3}[.)]\s+/, '')),
        span: { start: item.start, end: item.end },
      });
    item = undefined;
  };
  const closeList = () => {
    closeItem();
    if (current && current.items.length > 0) lists.push(current);
    current = undefined;
  };
  for (const line of lines) {
    if (!line.inFence) {
      const title = HEADING.exec(line.text);
      if (title) {
        closeList();
        heading = title[2];
        continue;
      }
      const ordered = ORDERED_ITEM.exec(line.text);
      if (ordered) {
        closeItem();
        current ??= { heading, items: [] };
        item = { start: line.start, end: line.end, first: ordered[3] };
        continue;
      }
      // An unindented paragraph line ends the list; blank and indented lines (and fences) continue the item.
      if (item && line.text.trim() !== '' && !/^\s/.test(line.text) && !/^[-*+]\s/.test(line.text)) {
        closeList();
        continue;
      }
    }
    if (item) item.end = line.end;
  }
  closeList();
  return lists;
}

/** Sentences that start with First / Then / Next / Finally, in order, when there are at least two. */
function sequenceSentences(lines: Line[]): ProseStep[] {
  const steps: ProseStep[] = [];
  for (const line of lines) {
    if (line.inFence || HEADING.test(line.text)) continue;
    for (const match of line.text.matchAll(/[^.!?]+[.!?]?/g)) {
      const sentence = match[0].trim();
      if (!SEQUENCE_WORD.test(sentence)) continue;
      const at = line.start + match.index! + match[0].indexOf(sentence);
      const rest = sentence.replace(SEQUENCE_WORD, '');
      steps.push({
        title: rest,
        text: rest.replace(/^./, (first) => first.toUpperCase()),
        span: { start: at, end: at + sentence.length },
      });
    }
  }
  return steps.length >= 2 ? steps : [];
}

/**
 * Finds the procedure a prose skill describes, the way a person would:
 * `Step N` headings; else the numbered list under a process-like heading
 * (or the longest one); else "first … then …" sentences; else the whole
 * body is one step. Also collects what lies outside the steps, for the
 * procedure's guidance.
 */
export function readProse(syntax: SkillFileSyntax): ProseOutline {
  const lines = bodyLines(syntax);
  const fences = syntax.fences.filter((fence) => fence.open.start >= syntax.body.start);
  let steps = stepHeadings(syntax, lines);
  let source: StepSource = 'step headings';
  if (steps.length < 2) {
    const lists = orderedLists(syntax, lines).filter((list) => list.items.length >= 2);
    const chosen =
      lists.find((list) => PROCESS_HEADING.test(list.heading)) ??
      [...lists].sort((a, b) => b.items.length - a.items.length)[0];
    steps = chosen?.items ?? [];
    source = 'numbered list';
  }
  if (steps.length < 2) {
    steps = sequenceSentences(lines);
    source = 'first/then sentences';
  }
  if (steps.length < 2) {
    const title = lines.map((line) => (line.inFence ? null : HEADING.exec(line.text))).find(Boolean)?.[2];
    steps = [
      {
        title: title ?? 'follow the skill',
        text: spanText(syntax, syntax.body).replace(/^#\s+.*\n/, ''),
        span: syntax.body,
      },
    ];
    source = 'whole body';
  }
  const inStep = (at: number) => steps.some((step) => step.span.start <= at && at < step.span.end);
  const loose: ProseOutline['loose'] = [];
  let heading = '';
  let lead: string | undefined;
  const paragraph: string[] = [];
  for (const line of lines) {
    const title = line.inFence ? null : HEADING.exec(line.text);
    if (title) heading = title[2];
    if (line.inFence || title) continue;
    // The lead is the first paragraph before the procedure starts.
    if (lead === undefined && source !== 'whole body' && line.start < steps[0].span.start) {
      if (line.text.trim() === '' && paragraph.length > 0) lead = paragraph.join(' ');
      else if (line.text.trim() !== '' && !/^(\s|[-*+]\s|\d+[.)]\s|>|\|)/.test(line.text))
        paragraph.push(line.text.trim());
    }
    if (!inStep(line.start) && line.text.trim() !== '')
      loose.push({ heading, text: line.text.trim(), span: { start: line.start, end: line.end } });
  }
  if (lead === undefined && paragraph.length > 0 && source !== 'whole body') lead = paragraph.join(' ');
  const sections = source === 'whole body' ? [] : sectionsOutside(syntax, lines, steps, lead);
  return { steps, source, ...(lead ? { lead } : {}), loose, sections, fences };
}

/** Each heading's own text (to the next heading of any level) where no step lies and which says more than the lead. */
function sectionsOutside(
  syntax: SkillFileSyntax,
  lines: Line[],
  steps: ProseStep[],
  lead: string | undefined,
): ProseOutline['sections'] {
  const headings = lines.flatMap((line) => {
    const match = line.inFence ? null : HEADING.exec(line.text);
    return match ? [{ line, title: match[2] }] : [];
  });
  return headings.flatMap(({ line, title }, index) => {
    const span = { start: line.start, end: headings[index + 1]?.line.start ?? syntax.body.end };
    const text = spanText(syntax, { start: line.end, end: span.end });
    const overlaps = steps.some((step) => step.span.start < span.end && span.start < step.span.end);
    const onlyLead = lead !== undefined && text.replace(/\s+/g, ' ') === lead;
    return overlaps || text === '' || onlyLead ? [] : [{ heading: title, text, span }];
  });
}
