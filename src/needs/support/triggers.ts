// Profile request templates (sandbox triggers, webhook wiring): {{placeholders}}
// filled from variables, sent with the acting partner's credentials to the
// template's base (gate or pools) or to an absolute URL, values extracted from
// the JSON response. A template speaks the sandbox's language: `values` maps
// rampart's values to the sandbox's own words (pool_dry → dry), and `arm`
// sends requests first that arm the sandbox (a control that fails the partner's
// next request), so the template's own request is the one judged. Both happen
// here, in the path every caller shares (needs, the doctor, rampart explore).
import { randomUUID } from 'node:crypto';
import type { ApiClient, Exchange } from '../../client/types.js';
import type { ArmStep, RequestTemplate } from '../../profile/schema.js';
import { CheckUnverified } from '../../runner/expect.js';
import type { GateActor, NeedEnv, PoolsActor, Service, TriggerResult } from '../define.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

export class TemplateError extends Error {}

/** An arming request of a template that did not answer as it says: the trigger never got to its own request. */
export class ArmError extends TemplateError {
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}

export function fill(text: string, vars: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (_m, name: string) => {
    if (name === 'random') return randomUUID().slice(0, 8);
    const v = vars[name];
    if (v === undefined) throw new TemplateError(`template placeholder {{${name}}} has no value (have: ${Object.keys(vars).join(', ') || 'none'})`);
    return v;
  });
}

/** Fill every string inside a JSON value. */
export function fillDeep(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== '$comment')
        .map(([k, v]) => [k, fillDeep(v, vars)]),
    );
  }
  return value;
}

export function pick(obj: unknown, dotted: string): unknown {
  let cur: any = obj;
  for (const part of dotted.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** The variables in the sandbox's own words: each value the template maps (values) replaced by the sandbox's. */
export function inSandboxWords(vars: Record<string, string>, values: RequestTemplate['values']): Record<string, string> {
  if (!values) return vars;
  const out = { ...vars };
  for (const [name, words] of Object.entries(values)) {
    const v = vars[name];
    if (v !== undefined && Object.hasOwn(words, v)) out[name] = words[v]!;
  }
  return out;
}

/** The status a request of a template says means success, or any 2xx. */
export const stepOk = (step: ArmStep | RequestTemplate, ex: Exchange) =>
  step.expectStatus ? step.expectStatus.includes(ex.status) : ex.status >= 200 && ex.status < 300;

/** Where one request of a template goes: the client and the path to send on it (an absolute URL resolved by the caller). */
export type ClientFor = (step: ArmStep | RequestTemplate, path: string) => { client: ApiClient; path: string };

/** One request of a template, filled and sent; what it extracts. */
async function sendStep(to: ClientFor, step: ArmStep | RequestTemplate, vars: Record<string, string>, retry: boolean | undefined): Promise<TriggerResult> {
  const { client, path } = to(step, fill(step.path, vars));
  const exchange: Exchange = await client.request({
    method: step.method,
    path,
    body: step.body === undefined ? undefined : fillDeep(step.body, vars),
    headers: step.headers ? (fillDeep(step.headers, vars) as Record<string, string>) : undefined,
    auth: step.auth === 'none' ? 'none' : 'secret',
    ...(retry === false ? { retry: false } : {}),
  });
  const values: Record<string, unknown> = {};
  for (const [name, dotted] of Object.entries(step.extract ?? {})) values[name] = pick(exchange.json, dotted);
  return { exchange, values };
}

/**
 * A template as a sequence: its arming requests (never retried: an arm sent twice arms twice), each required to
 * answer as it says, their extracted values filled into the next; then its own request, whose answer is the result.
 * Every request fills the variables in the sandbox's own words.
 */
export async function sendSequence(to: ClientFor, tpl: RequestTemplate, vars: Record<string, string>, opts: { retry?: false } = {}): Promise<TriggerResult> {
  let filled = inSandboxWords(vars, tpl.values);
  for (const [i, step] of (tpl.arm ?? []).entries()) {
    const armed = await sendStep(to, step, filled, false);
    if (!stepOk(step, armed.exchange))
      throw new ArmError(
        `arm step ${i + 1} (${step.method} ${step.path}) answered ${armed.exchange.status} (expected ${step.expectStatus?.join(' or ') ?? '2xx'}): ${armed.exchange.bodyText.slice(0, 200)}`,
        armed.exchange,
      );
    for (const [name, v] of Object.entries(armed.values)) if (typeof v === 'string' || typeof v === 'number') filled = { ...filled, [name]: String(v) };
  }
  return sendStep(to, tpl, filled, opts.retry);
}

/** Send a template with an already-made client (its base and credentials): mapped values and arming included. */
export async function sendWith(client: ApiClient, tpl: RequestTemplate, vars: Record<string, string>): Promise<TriggerResult> {
  return sendSequence((_step, path) => ({ client, path }), tpl, vars);
}

/**
 * Where a request of a template goes as `actor`: to its own base (`base`, default the service it is declared
 * under) or to its absolute URL, with the actor's key.
 */
export function actorClients(env: NeedEnv, service: Service, actor: GateActor | PoolsActor): ClientFor {
  const client = (base: Service, url: string) =>
    env.client(base, url, `${actor.partner.name} (trigger)`, actor.partner.secretKey, actor.partner.publishableKey);
  return (step, path) => {
    const base = step.base ?? service;
    if (/^https?:\/\//i.test(path)) {
      const u = new URL(path);
      return { client: client(base, u.origin), path: `${u.pathname}${u.search}` };
    }
    if (base === service) return { client: actor.client, path };
    const baseUrl = base === 'gate' ? env.profile.gate.baseUrls.sandbox : env.profile.pools?.baseUrls.sandbox;
    if (!baseUrl) throw new TemplateError(`trigger names base ${base}, but the profile has no ${base} section`);
    return { client: client(base, baseUrl), path };
  };
}

/** Send a template as `actor`, to its base or its absolute URL, with the actor's key. */
export async function sendTemplate(
  env: NeedEnv,
  service: Service,
  actor: GateActor | PoolsActor,
  tpl: RequestTemplate,
  vars: Record<string, string>,
  opts: { retry?: false } = {},
): Promise<TriggerResult> {
  return sendSequence(actorClients(env, service, actor), tpl, vars, opts);
}

/** Run a trigger and require its documented success (expectStatus, or any 2xx): a broken trigger fails the check. */
export async function runTrigger(
  env: NeedEnv,
  service: Service,
  name: string,
  tpl: RequestTemplate,
  actor: GateActor | PoolsActor,
  vars: Record<string, string>,
): Promise<TriggerResult> {
  const res = await armedOrUnverified(service, name, () => sendTemplate(env, service, actor, tpl, vars));
  // A sandbox control that does not work leaves the rule unasserted: unverified, and `rampart doctor` names it.
  if (!stepOk(tpl, res.exchange)) {
    throw new CheckUnverified(
      `profile trigger ${service}.triggers.${name} answered ${res.exchange.status} (expected ${tpl.expectStatus?.join(' or ') ?? '2xx'}): ${res.exchange.bodyText.slice(0, 200)} — fix the trigger in the profile (rampart doctor checks it)`,
      res.exchange,
    );
  }
  return res;
}

/** A trigger's sequence; an arming request that failed makes the check unverified, naming it. */
export async function armedOrUnverified<T>(service: Service, name: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    if (e instanceof ArmError)
      throw new CheckUnverified(
        `profile trigger ${service}.triggers.${name}: ${e.message} — fix the trigger in the profile (rampart doctor checks it)`,
        e.exchange,
      );
    throw e;
  }
}
