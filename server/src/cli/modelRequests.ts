import { MODEL_SYSTEM_PROMPT, parseModelAnswer, questionPrompt, type Verdict } from '../checks/security/modelOpinion';
import type { ModelQuestion } from '../checks/security/modelQuestions';
import type { ModelEndpoint } from '../config/configFile';

// One question to an OpenAI-compatible endpoint (`check --model`): POST {url}/chat/completions with Node's fetch,
// bounded by a timeout. Every way it can fail (no connection, no answer in time, an HTTP error, a body that is not
// the API's JSON, an answer without a verdict) comes back as a failure in words; nothing throws.

/** How long an answer is waited for when the configuration does not say. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** What one question got: a verdict, or why there is none (`kind` groups failures in the run's notice). */
export type Asked =
  | { verdict: Verdict; reason: string }
  | { failure: { kind: 'unreachable' | 'timeout' | 'http' | 'response' | 'answer'; detail: string } };

const shortened = (text: string) => text.trim().replace(/\s+/g, ' ').slice(0, 120);

export async function askEndpoint(
  endpoint: ModelEndpoint,
  apiKey: string | undefined,
  question: ModelQuestion,
): Promise<Asked> {
  const seconds = endpoint.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  let body: string;
  try {
    const response = await fetch(`${endpoint.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify({
        model: endpoint.name,
        temperature: 0,
        messages: [
          { role: 'system', content: MODEL_SYSTEM_PROMPT },
          { role: 'user', content: questionPrompt(question) },
        ],
      }),
      // The whole exchange, the body's reading included.
      signal: AbortSignal.timeout(seconds * 1000),
    });
    body = await response.text();
    if (!response.ok)
      return { failure: { kind: 'http', detail: `HTTP ${response.status}${body ? ` ${shortened(body)}` : ''}` } };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError')
      return { failure: { kind: 'timeout', detail: `no answer within ${seconds} s` } };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { failure: { kind: 'unreachable', detail: cause } };
  }
  let content: unknown;
  try {
    content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  } catch {
    return { failure: { kind: 'response', detail: `not JSON: ${JSON.stringify(shortened(body))}` } };
  }
  if (typeof content !== 'string')
    return { failure: { kind: 'response', detail: `no choices[0].message.content in ${shortened(body)}` } };
  const answer = parseModelAnswer(content);
  return 'problem' in answer ? { failure: { kind: 'answer', detail: answer.problem } } : answer;
}
