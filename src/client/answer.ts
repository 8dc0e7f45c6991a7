// What an HTTP answer is when it is not an API answer: a redirect (the client
// never follows one), invalid JSON under a JSON content type, or a body that is
// not JSON at all. One phrase each, for one-line messages.
import { redact } from '../secrets/redact.js';
import type { Exchange } from './types.js';

export type AnswerProblem = { kind: 'redirect'; location?: string; text: string } | { kind: 'invalid-json'; text: string } | { kind: 'non-json'; text: string };

/** Why this answer cannot be the API's JSON, or undefined when it is JSON (or deliberately empty). */
export function describeAnswer(ex: Exchange): AnswerProblem | undefined {
  if (ex.status >= 300 && ex.status < 400) {
    const location = ex.headers['location'] ? redact(ex.headers['location']) : undefined;
    return {
      kind: 'redirect',
      location,
      text: `a redirect (${ex.status}) to ${location ?? 'no Location'} — rampart never follows redirects; set the base URL to the address that answers`,
    };
  }
  if (ex.jsonError) return { kind: 'invalid-json', text: `an ${ex.jsonError} (${ex.headers['content-type']})` };
  const ct = ex.headers['content-type'] ?? '';
  if (ex.json === undefined && (ex.bodyText.trim() !== '' || !/json/i.test(ct)))
    return { kind: 'non-json', text: `a non-JSON body (${ct || 'no content-type'})` };
  return undefined;
}
