// The preflight: per service, one documented, harmless read with the first
// partner's key, which must get a documented answer. Anything else ends the
// run before its checks with one line that says what the target answered:
// exit 3 (not the API, down, redirecting, failing), 2 (the profile's key is
// rejected), 5 (rate limited). One request per service, two on a retry.
import { describeAnswer } from '../client/answer.js';
import { createApiClient } from '../client/http.js';
import type { TargetClocks } from '../client/targetClock.js';
import { clientLimits } from '../client/limits.js';
import { TransportError, type Exchange } from '../client/types.js';
import { ERROR_TYPES } from '../model/schemas/common.js';
import type { Profile } from '../profile/schema.js';
import { redact } from '../secrets/redact.js';
import { EXIT, RunError } from '../exitCodes.js';

interface Probe {
  svc: 'gate' | 'pools';
  baseUrl: string;
  partner: string;
  keyField: string;
  key: string;
  path: string;
  /** The documented 200 body, in words, and its test. */
  expected: string;
  matches(json: any): boolean;
}

function probesFor(profile: Profile, services: ('gate' | 'pools')[]): Probe[] {
  const probes: Probe[] = [];
  if (services.includes('gate')) {
    const p = profile.gate.partners[0]!;
    probes.push({
      svc: 'gate',
      baseUrl: profile.gate.baseUrls.sandbox,
      partner: p.name,
      keyField: 'gate.partners[0].secretKey',
      key: p.secretKey,
      path: '/capabilities/assets',
      expected: 'a list envelope (object "list", data array)',
      matches: (j) => isObject(j) && j.object === 'list' && Array.isArray(j.data),
    });
  }
  if (services.includes('pools') && profile.pools) {
    const p = profile.pools.partners[0]!;
    probes.push({
      svc: 'pools',
      baseUrl: profile.pools.baseUrls.sandbox,
      partner: p.name,
      keyField: 'pools.partners[0].secretKey',
      key: p.secretKey,
      path: '/pools',
      expected: '{ pools: [...] }',
      matches: (j) => isObject(j) && Array.isArray(j.pools),
    });
  }
  return probes;
}

export async function preflight(profile: Profile, services: ('gate' | 'pools')[], clocks?: TargetClocks): Promise<void> {
  const limits = clientLimits(profile.harness);
  for (const p of probesFor(profile, services)) {
    const client = createApiClient({
      service: p.svc,
      baseUrl: p.baseUrl,
      label: 'preflight',
      secretKey: p.key,
      clock: clocks?.[p.svc],
      ...limits,
      retry: { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 500 },
    });
    let ex: Exchange;
    try {
      ex = await client.get(p.path);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      if (e.kind === 'rate-limited') throw new RunError(`${p.svc} target: ${e.message}`, EXIT.rateLimited);
      // It answered, but its body broke the limits: not "unreachable", still not an API to certify.
      if (e.kind === 'too-large' || e.kind === 'body-timeout') throw new RunError(`${p.svc} target: ${e.message}`, EXIT.unreachable);
      throw new RunError(`${p.svc} target unreachable: ${e.message}`, EXIT.unreachable);
    }
    judge(p, ex);
  }
}

/** Throws the one line (and exit code) for anything but a documented answer. */
function judge(p: Probe, ex: Exchange): void {
  const at = `${p.svc} target at ${redact(p.baseUrl)}: GET ${p.path} answered`;
  const times = ex.retries === 1 ? ' twice' : ex.retries > 1 ? ` ${ex.retries + 1} times` : '';
  const problem = describeAnswer(ex);
  if (problem?.kind === 'redirect') throw new RunError(`${at} ${problem.text}`, EXIT.unreachable);
  if (problem) throw new RunError(`${at} ${ex.status} with ${problem.text} — is the base URL pointing at the API, and is the service up?`, EXIT.unreachable);
  const envelope = isErrorEnvelope(ex.json);
  const withEnvelope = envelope ? ' with the API error envelope' : '';
  if (ex.status >= 500)
    throw new RunError(`${at} ${ex.status}${times}${withEnvelope} — the ${p.svc} service is failing; check its health and rerun later`, EXIT.unreachable);
  if (ex.status === 404)
    throw new RunError(
      `${at} 404${withEnvelope}, a documented route missing at this base path — is the base URL right (the API's own, ending in /v1)?`,
      EXIT.unreachable,
    );
  if (ex.status === 429)
    throw new RunError(`${p.svc} target: rate limited by the target (GET ${p.path} answered 429${times}): wait or add keys`, EXIT.rateLimited);
  if (ex.status === 401 || ex.status === 403) {
    // The API itself refuses the key: a profile problem, named by partner and field, never by value.
    if (envelope)
      throw new RunError(
        `${p.svc} partner ${p.partner}: the target rejects its secret key (${ex.status} ${ex.json.code ?? ex.json.type}) — check ${p.keyField} in the profile`,
        EXIT.usage,
      );
    throw new RunError(`${at} ${ex.status} without the API error envelope — a gateway in front of the API? check the base URL`, EXIT.unreachable);
  }
  if (ex.status === 200 && p.matches(ex.json)) return;
  if (ex.status === 200) throw new RunError(`${at} 200 but not with ${p.expected} — is the base URL the ${p.svc} API?`, EXIT.unreachable);
  throw new RunError(
    `${at} ${ex.status}, not a documented answer (200 with ${p.expected}, or 401/403 with the error envelope) — is the base URL the ${p.svc} API?`,
    EXIT.unreachable,
  );
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The documented error envelope, recognised by its type (the full shape is a conformance matter, not the preflight's). */
function isErrorEnvelope(v: unknown): boolean {
  return isObject(v) && (ERROR_TYPES as readonly unknown[]).includes(v.type);
}
