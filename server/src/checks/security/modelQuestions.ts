import * as path from 'node:path';
import type { Span } from '../../parse/text/lineIndex';
import { outsideFences, parseSkillFile, type Frontmatter, type SkillFileSyntax } from '../../parse/markdown/skillFile';
import { parseYamlRegion } from '../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf } from '../../parse/yaml/yamlNodes';
import type { FileSystem } from '../../workspace/fileSystem';
import { readText } from '../../workspace/readText';
import { hiddenCommentFindings, hiddenInstructions } from './hiddenText';
import { hostileInstruction, hostileInstructions, paragraphs } from './hostileInstructions';
import { sensitiveInstruction } from './sensitiveInstruction';
import { skillTexts, type Placed } from './skillTexts';

// Which paragraphs of a skill a language model is asked about (`check --model`, the editor's command): those
// hostile_instruction or hidden_instructions reported, then those that read as an instruction touching something
// sensitive that no rule reported (sensitiveInstruction.ts). Prose only: each Markdown file's text outside its fenced
// blocks, and the description. Bounded: a skill costs at most MAX_QUESTIONS requests, each of at most
// MAX_QUESTION_CHARS of the skill's text.

/** At most this many paragraphs of a skill are asked about: those the rules reported first, then in file order. */
export const MAX_QUESTIONS = 8;
/** At most this much of a paragraph is sent; a longer one is cut, and the model told so. */
export const MAX_QUESTION_CHARS = 1500;

/** A paragraph to ask a model about. */
export interface ModelQuestion {
  /** The absolute path of its file. */
  file: string;
  /** Its file's path relative to the skill folder, with `/`. */
  shown: string;
  /** The whole paragraph in its file: where the opinion is reported. */
  span: Span;
  /** Its text, at most MAX_QUESTION_CHARS of it. */
  text: string;
  /** The text was cut to MAX_QUESTION_CHARS. */
  cut: boolean;
  /** Why it is asked about, in words: the rule that reported it, or what it touches. */
  why: string;
}

/** A Markdown text of the skill as the question finder reads it: its prose, and what the rules report in it. */
interface MarkdownText {
  file: string;
  prose: Placed[];
  reported: { span: Span; code: string }[];
}

function markdownText(
  file: string,
  text: string,
  { body, fences }: SkillFileSyntax = parseSkillFile(text),
): MarkdownText {
  const prose = outsideFences(body, fences).map((span) => ({
    start: span.start,
    text: text.slice(span.start, span.end),
  }));
  const reported = [...hostileInstructions(file, prose), ...hiddenCommentFindings(file, text, fences)];
  return { file, prose, reported: reported.map((item) => ({ span: item.span, code: item.code })) };
}

/** The description, as one paragraph at its value in SKILL.md, and whether hostile_instruction reports it. */
function descriptionOf(file: string, text: string, frontmatter: Frontmatter | undefined): MarkdownText | undefined {
  if (!frontmatter) return undefined;
  const yaml = parseYamlRegion(text, frontmatter.content);
  if (typeof (yaml.value as { description?: unknown } | null)?.description !== 'string') return undefined;
  const span = nodeSpan(yaml, pairOf(yaml.doc.contents, 'description')?.value);
  if (!span) return undefined;
  const prose = [{ start: span.start, text: text.slice(span.start, span.end) }];
  const reported = hostileInstructions(file, prose).map((item) => ({ span, code: item.code }));
  return { file, prose, reported };
}

const REPORTED_BY: Record<string, string> = {
  [hostileInstruction.code]: `${hostileInstruction.code} reported it`,
  [hiddenInstructions.code]: `${hiddenInstructions.code} reported it (an HTML comment or collapsed section)`,
};

function question(dir: string, file: string, span: Span, text: string, why: string): ModelQuestion {
  const cut = text.length > MAX_QUESTION_CHARS;
  return {
    file,
    shown: path.relative(dir, file).split(path.sep).join('/'),
    span,
    text: cut ? text.slice(0, MAX_QUESTION_CHARS) : text,
    cut,
    why,
  };
}

/** The paragraphs of one Markdown text to ask about: the reported ones, and the others that read as sensitive. */
function questionsIn(dir: string, read: MarkdownText): { reported: ModelQuestion[]; unreported: ModelQuestion[] } {
  // Each paragraph without the line break and blanks that end it: the opinion is at the paragraph's words.
  const whole = read.prose.flatMap(paragraphs).map((p) => ({ start: p.start, text: p.text.trimEnd() }));
  const reported: ModelQuestion[] = [];
  for (const item of read.reported) {
    // The paragraph the finding starts in, widened to the finding (a comment may run across blank lines).
    const within = whole.find((p) => p.start <= item.span.start && item.span.start < p.start + p.text.length);
    const start = Math.min(within?.start ?? item.span.start, item.span.start);
    const end = Math.max(within ? within.start + within.text.length : item.span.end, item.span.end);
    if (reported.some((asked) => asked.span.start < end && start < asked.span.end)) continue;
    const text = sliceOf(read.prose, start, end);
    if (text.trim() !== '')
      reported.push(question(dir, read.file, { start, end }, text, REPORTED_BY[item.code] ?? item.code));
  }
  const unreported = whole.flatMap((p) => {
    const span = { start: p.start, end: p.start + p.text.length };
    if (reported.some((asked) => asked.span.start < span.end && span.start < asked.span.end)) return [];
    const cues = sensitiveInstruction(p.text);
    return cues.length > 0 ? [question(dir, read.file, span, p.text, `it touches ${cues.join(', ')}`)] : [];
  });
  return { reported, unreported };
}

/** The text of `start`–`end` from the prose pieces that hold it (a span across a fence keeps only the prose). */
function sliceOf(prose: Placed[], start: number, end: number): string {
  return prose
    .map((piece) => {
      const from = Math.max(start, piece.start) - piece.start;
      const to = Math.min(end, piece.start + piece.text.length) - piece.start;
      return to > from ? piece.text.slice(from, to) : '';
    })
    .join('');
}

/**
 * The paragraphs of the skill whose SKILL.md is `skillFile` to ask a language model about: at most MAX_QUESTIONS,
 * those the rules reported first. Reads the skill's files as the security rules read them (bounded, never run, never
 * out of the folder), SKILL.md as `skillText` when given (the editor's); a skill it cannot read has none.
 */
export function modelQuestions(fs: FileSystem, skillFile: string, skillText?: string): ModelQuestion[] {
  const read = skillText === undefined ? readText(fs, skillFile) : { kind: 'text' as const, text: skillText };
  if (read.kind !== 'text') return [];
  const dir = path.dirname(skillFile);
  const syntax = parseSkillFile(read.text);
  const texts = [
    ...[descriptionOf(skillFile, read.text, syntax.frontmatter)].filter((item): item is MarkdownText => !!item),
    markdownText(skillFile, read.text, syntax),
    ...skillTexts(fs, dir)
      .texts.filter((item) => item.kind === 'markdown')
      .map((item) => markdownText(item.file, item.text)),
  ];
  const found = texts.map((text) => questionsIn(dir, text));
  return [...found.flatMap((item) => item.reported), ...found.flatMap((item) => item.unreported)].slice(
    0,
    MAX_QUESTIONS,
  );
}
