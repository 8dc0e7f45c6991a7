// The one line a failed request becomes: what failed (method and redacted URL) and what to do — a timeout with the
// real budget (per attempt × attempts), a rate-limit stop with the run's budget, a socket error by its cause.
import { redact } from '../secrets/redact.js';
import { formatSeconds } from './limits.js';
import { TransportError } from './types.js';

const RAISE_TIMEOUT = 'raise it with --request-timeout <seconds> or harness.requestTimeoutMs in the profile';

export function timeoutBudget(what: string, perAttemptMs: number, attempts: number, url: string): TransportError {
  const n = Math.max(1, attempts);
  return new TransportError(
    'timeout',
    `${what}: no answer within ${formatSeconds(perAttemptMs)} (per attempt) × ${n} attempt${n === 1 ? '' : 's'} = ${formatSeconds(perAttemptMs * n)} — check the target is healthy, or ${RAISE_TIMEOUT}`,
    url,
  );
}

export function rateLimited(what: string, waitMs: number, budgetMs: number, why: string, url: string): TransportError {
  return new TransportError(
    'rate-limited',
    `rate limited by the target for ${Math.ceil(waitMs / 1000)} s: wait or add keys (${what}: ${why}; the run's budget is ${formatSeconds(budgetMs)}, harness.rateLimitBudgetSeconds)`,
    url,
  );
}

function errorCode(e: unknown): string {
  const seen = new Set<unknown>();
  let cur: any = e;
  // Walk the cause chain: undici wraps the socket error.
  for (let i = 0; cur && i < 5 && !seen.has(cur); i++) {
    seen.add(cur);
    if (typeof cur.code === 'string' && cur.code !== 'UND_ERR_SOCKET') return cur.code;
    cur = cur.cause;
  }
  return typeof (e as any)?.code === 'string' ? (e as any).code : '';
}

/** Map a low-level failure to one line that says what failed and what to do. */
export function toTransportError(e: unknown, method: string, url: string, baseUrl: string, timeoutMs?: number): TransportError {
  const what = `${method} ${redact(url)}`;
  if (timeoutMs !== undefined) return timeoutBudget(what, timeoutMs, 1, url);
  const code = errorCode(e);
  const msg = redact(String((e as any)?.message ?? e));
  if (code === 'ECONNREFUSED') return new TransportError('refused', `${what}: connection refused — is the target running at ${redact(baseUrl)}?`, url);
  if (['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'].includes(code))
    return new TransportError('unreachable', `${what}: host unreachable (${code}) — check the base URL ${redact(baseUrl)} and the network/DNS`, url);
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code) || /certificate|tls|ssl/i.test(msg))
    return new TransportError('tls', `${what}: TLS handshake failed (${code || msg}) — check the certificate or use the right http/https scheme`, url);
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return new TransportError('timeout', `${what}: could not connect within 10 s (${code}) — check the target is up and reachable at ${redact(baseUrl)}`, url);
  if (['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'].includes(code))
    return new TransportError('timeout', `${what}: timeout (${code}) — the target did not answer in time; check it is healthy, or ${RAISE_TIMEOUT}`, url);
  if (['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code) || /other side closed|socket hang up/i.test(msg)) {
    // An https server reached over http closes the socket the same way.
    const scheme = url.startsWith('http:') ? ' (or it serves https: check the scheme of the base URL)' : '';
    return new TransportError('reset', `${what}: connection reset by the target — it closed the socket before answering${scheme}; check its logs`, url);
  }
  return new TransportError('other', `${what}: request failed (${code || msg.split('\n')[0]}) — check the target at ${redact(baseUrl)}`, url);
}
