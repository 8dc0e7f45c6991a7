// Routes whose body or query the Gate spec does not show (POST /quotes/preview, GET /capabilities/payout-methods):
// rampart can only guess what to send, and "400 for a missing or malformed field" is a documented answer to a guess.
// What is judged is what the spec documents: the secret key is accepted (a 401 or 403 refuses it), the route answers
// (a 404 or 405 says it is not there), a malformed input is no server failure (no 5xx), and every error carries the
// envelope. A 4xx about the input is never failed; it and the input that got it are observed.
import type { Exchange } from '../../src/client/types.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { expectGateError } from './errors.js';

/** The statuses that mean the route or the credential was refused, not the guessed input. */
const REFUSALS = [401, 403, 404, 405];

/**
 * Judge one answer to a guessed input: 'ok' for a 2xx, 'input refused' for a 4xx about the input (its envelope
 * judged), a failure naming `requirement` for anything else.
 */
export function judgeGuessedInput(t: CheckTools, ex: Exchange, requirement: RequirementId, what: string): 'ok' | 'input refused' {
  if (ex.status >= 200 && ex.status < 300) return 'ok';
  t.expect.that(
    ex.status >= 400 && ex.status < 500 && !REFUSALS.includes(ex.status),
    `${what} accepts the secret key and answers (a 4xx about the input it was sent may be)`,
    {
      requirement,
      expected: `2xx, or a 4xx about the input (400 for a malformed field) other than ${REFUSALS.join(', ')}`,
      actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`,
      exchange: ex,
    },
  );
  expectGateError(t, ex, ex.status, ex.status === 400 ? requirement : undefined);
  return 'input refused';
}

/**
 * Send the guesses in turn until one gets a 2xx: each answer judged as above, and which guess (if any) the target
 * took is observed under `topic`. The 2xx answer, or undefined when every guess got a 4xx about its input.
 */
export async function firstAnswered<T>(
  t: CheckTools,
  guesses: readonly T[],
  send: (guess: T) => Promise<Exchange>,
  requirement: RequirementId,
  what: string,
  topic: string,
): Promise<Exchange | undefined> {
  const tried: { input: T; status: number; message?: unknown }[] = [];
  for (const guess of guesses) {
    const ex = await send(guess);
    const verdict = judgeGuessedInput(t, ex, requirement, what);
    tried.push({ input: guess, status: ex.status, ...(verdict === 'ok' ? {} : { message: (ex.json as { message?: unknown } | undefined)?.message }) });
    if (verdict === 'ok') {
      t.observe(topic, tried, 'the input is not shown: the guesses sent, and the one the target answered with a 2xx');
      return ex;
    }
  }
  t.observe(topic, tried, 'the input is not shown: every guess got a 4xx about it (a documented answer), so only the credential and the envelope were judged');
  return undefined;
}
