import * as path from 'node:path';
import { applySeverities } from '../checks/engine/severities';
import { modelFinding, modelOpinion } from '../checks/security/modelOpinion';
import { modelQuestions, type ModelQuestion } from '../checks/security/modelQuestions';
import type { ModelEndpoint } from '../config/configFile';
import type { RunSettings } from '../config/runSettings';
import { LineIndex } from '../parse/text/lineIndex';
import type { FoundSkill } from '../workspace/discover';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { askEndpoint, type Asked } from './modelRequests';
import { plural } from './output';
import { toReported, type SkillReport } from './reporters/report';

// `check --model`: after the rules, each skill's paragraphs worth a second opinion (modelQuestions) go to the model
// its configuration names, at most MAX_IN_FLIGHT at a time, and each verdict other than benign joins the skill's
// findings (model_opinion). What failed is said once per model, on stderr; the rules' findings are reported anyway.

/** Questions in flight at once, over every model of the run: a run of many skills does not flood an endpoint. */
export const MAX_IN_FLIGHT = 4;

/** The model each skill is asked with, and its API key, read from the environment once per run. */
export interface ModelSetup {
  bySkill: Map<string, { endpoint: ModelEndpoint; apiKey?: string }>;
}

/** Each skill's model, or what is missing, in words for the user (the run then stops with a usage error). */
export function modelSetup(settings: RunSettings, skills: FoundSkill[]): ModelSetup | { error: string } {
  const bySkill: ModelSetup['bySkill'] = new Map();
  for (const skill of skills) {
    const endpoint = settings.forSkill(skill.file).model;
    if (!endpoint)
      return {
        error: `--model needs a model in the configuration (\`model: { url: https://…/v1, name: …, apiKeyEnv: … }\` in .skillgraph.yaml), and none governs ${path.dirname(skill.display)}`,
      };
    const apiKey = endpoint.apiKeyEnv === undefined ? undefined : process.env[endpoint.apiKeyEnv];
    if (endpoint.apiKeyEnv !== undefined && !apiKey)
      return { error: `--model: the configuration's model.apiKeyEnv names ${endpoint.apiKeyEnv}, which is not set` };
    bySkill.set(skill.file, { endpoint, ...(apiKey ? { apiKey } : {}) });
  }
  return { bySkill };
}

/** Runs `work` on every item, at most `limit` at a time; the results in the items' order. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < items.length; at = next++) results[at] = await work(items[at]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface Job {
  part: number;
  skill: FoundSkill;
  question: ModelQuestion;
  endpoint: ModelEndpoint;
  apiKey?: string;
}

/** What one model was asked and answered in the run, for its notice. */
interface Tally {
  asked: number;
  verdicts: Record<string, number>;
  failures: Map<string, { count: number; first: string }>;
}

/**
 * The skills' reports with the model's opinions added (`parts[i]` is `skills[i]`'s), and the notices to print: per
 * model, what it was asked and judged, and what got no verdict and why.
 */
export async function withModelOpinions(
  fs: FileSystem,
  settings: RunSettings,
  setup: ModelSetup,
  skills: FoundSkill[],
  parts: SkillReport[],
): Promise<{ parts: SkillReport[]; notices: string[] }> {
  const jobs: Job[] = skills.flatMap((skill, part) => {
    // `model_opinion: off` in the configuration: nothing of the skill is sent.
    if (settings.forSkill(skill.file).severities[modelOpinion.code] === 'off') return [];
    const { endpoint, apiKey } = setup.bySkill.get(skill.file)!;
    return modelQuestions(fs, skill.file).map((question) => ({
      part,
      skill,
      question,
      endpoint,
      ...(apiKey ? { apiKey } : {}),
    }));
  });
  if (jobs.length === 0)
    return { parts, notices: ['skillgraph: --model: no paragraph of these skills called for a second opinion\n'] };
  const answers = await pooled(jobs, MAX_IN_FLIGHT, (job) => askEndpoint(job.endpoint, job.apiKey, job.question));
  const added: SkillReport['diagnostics'][] = parts.map(() => []);
  const tallies = new Map<string, Tally>();
  const texts = new Map<string, string>();
  answers.forEach((asked, at) => {
    const job = jobs[at];
    tally(tallies, job.endpoint, asked);
    if ('failure' in asked) return;
    const found = modelFinding(job.question, asked, job.endpoint.name);
    if (!found) return;
    const [item] = applySeverities([found], settings.forSkill(job.skill.file).severities);
    if (!item) return;
    if (!texts.has(item.file)) {
      const read = readText(fs, item.file);
      texts.set(item.file, read.kind === 'text' ? read.text : '');
    }
    const text = texts.get(item.file)!;
    const shown =
      item.file === job.skill.file
        ? job.skill.display
        : path.join(path.dirname(job.skill.display), path.relative(path.dirname(job.skill.file), item.file));
    added[job.part].push(toReported(item, shown, new LineIndex(text), text));
  });
  return {
    parts: parts.map((part, at) =>
      added[at].length === 0 ? part : { ...part, diagnostics: [...part.diagnostics, ...added[at]] },
    ),
    notices: [...tallies].flatMap(([model, counts]) => notices(model, counts)),
  };
}

function tally(tallies: Map<string, Tally>, endpoint: ModelEndpoint, asked: Asked): void {
  const model = `${endpoint.name} at ${endpoint.url}`;
  let counts = tallies.get(model);
  if (!counts) tallies.set(model, (counts = { asked: 0, verdicts: {}, failures: new Map() }));
  counts.asked++;
  if ('failure' in asked) {
    const seen = counts.failures.get(asked.failure.kind);
    if (seen) seen.count++;
    else counts.failures.set(asked.failure.kind, { count: 1, first: asked.failure.detail });
  } else counts.verdicts[asked.verdict] = (counts.verdicts[asked.verdict] ?? 0) + 1;
}

const FAILURES: Record<string, string> = {
  unreachable: 'could not reach it',
  timeout: 'no answer in time',
  http: 'an HTTP error',
  response: 'a response that is not a chat completion',
  answer: 'an answer without a verdict',
};

function notices(model: string, { asked, verdicts, failures }: Tally): string[] {
  const judged = ['malicious', 'suspicious', 'benign'].map((verdict) => `${verdicts[verdict] ?? 0} ${verdict}`);
  const failed = [...failures.values()].reduce((sum, failure) => sum + failure.count, 0);
  return [
    `skillgraph: asked ${model} about ${plural(asked, 'paragraph')}: ${judged.join(', ')}${failed > 0 ? `, ${failed} without a verdict` : ''}\n`,
    ...(failed > 0
      ? [
          `skillgraph: ${failed} of ${asked} questions to ${model} got no verdict, so their paragraphs have no opinion: ${[
            ...failures,
          ]
            .map(([kind, failure]) => `${failure.count} ${FAILURES[kind]} (${failure.first})`)
            .join('; ')}\n`,
        ]
      : []),
  ];
}
