import { pathToFileURL } from 'node:url';
import type { DocumentView } from '../analysis/documentView';
import {
  MODEL_SYSTEM_PROMPT,
  modelOpinion,
  opinionOf,
  parseModelAnswer,
  questionPrompt,
} from '../checks/security/modelOpinion';
import { modelQuestions } from '../checks/security/modelQuestions';
import type { RunSettings } from '../config/runSettings';
import { LineIndex } from '../parse/text/lineIndex';
import { readText } from '../workspace/readText';
import type { ModelQuestionWire, ModelVerdictWire } from '../protocol';

// The editor's side of a model's second opinion (the command "Ask a language model about this skill"): the server
// says what to ask and reads the answers, as `check --model` does; the client talks to the editor's model.

/** A file's lines: SKILL.md's as the view has them, another's read (the view indexes only files with findings). */
function linesOf(view: DocumentView, file: string): LineIndex {
  if (file === view.analysis.file) return view.files.of(file);
  const read = readText(view.fs, file);
  return new LineIndex(read.kind === 'text' ? read.text : '');
}

/** The paragraphs of the view's skill to ask about, each with its message; none when its configuration says `off`. */
export function modelQuestionsOf(
  view: DocumentView,
  settings: RunSettings,
): { system: string; questions: ModelQuestionWire[] } {
  const skillFile = view.analysis.file;
  const off = settings.forSkill(skillFile).severities[modelOpinion.code] === 'off';
  const questions = off ? [] : modelQuestions(view.fs, skillFile, view.analysis.text);
  return {
    system: MODEL_SYSTEM_PROMPT,
    questions: questions.map((question) => ({
      uri: pathToFileURL(question.file).href,
      range: linesOf(view, question.file).rangeOf(question.span),
      prompt: questionPrompt(question),
    })),
  };
}

/** Each answer read: the finding it makes, benign, or why it holds no verdict. */
export function modelVerdictsOf({ model, answers }: { model: string; answers: string[] }): ModelVerdictWire[] {
  return answers.map((text) => {
    const answer = parseModelAnswer(text);
    if ('problem' in answer) return { problem: answer.problem };
    return opinionOf(answer, model) ?? { benign: true };
  });
}
