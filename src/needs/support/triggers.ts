// Profile request templates (sandbox triggers, webhook wiring): {{placeholders}}
// filled from variables, sent with the acting partner's credentials to the
// template's base (gate or pools) or to an absolute URL, values extracted from
// the JSON response.
import { randomUUID } from 'node:crypto';
import type { ApiClient, Exchange } from '../../client/types.js';
import type { RequestTemplate } from '../../profile/schema.js';
import { CheckUnverified } from '../../runner/expect.js';
import type { GateActor, NeedEnv, PoolsActor, Service, TriggerResult } from '../define.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

export class TemplateError extends Error {}

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

/** Send a template with an already-made client (its base and credentials). */
export async function sendWith(client: ApiClient, tpl: RequestTemplate, vars: Record<string, string>): Promise<TriggerResult> {
  const exchange: Exchange = await client.request({
    method: tpl.method,
    path: fill(tpl.path, vars),
    body: tpl.body === undefined ? undefined : fillDeep(tpl.body, vars),
    headers: tpl.headers ? (fillDeep(tpl.headers, vars) as Record<string, string>) : undefined,
    auth: tpl.auth === 'none' ? 'none' : 'secret',
  });
  const values: Record<string, unknown> = {};
  for (const [name, dotted] of Object.entries(tpl.extract ?? {})) values[name] = pick(exchange.json, dotted);
  return { exchange, values };
}

/**
 * Send a template as `actor`: to the template's own base (`base`, default the
 * service it is declared under) or to its absolute URL, with the actor's key.
 */
export async function sendTemplate(
  env: NeedEnv,
  service: Service,
  actor: GateActor | PoolsActor,
  tpl: RequestTemplate,
  vars: Record<string, string>,
): Promise<TriggerResult> {
  const path = fill(tpl.path, vars);
  const absolute = /^https?:\/\//i.test(path);
  const base = tpl.base ?? service;
  let client = actor.client;
  if (absolute) {
    const u = new URL(path);
    client = env.client(base, u.origin, `${actor.partner.name} (trigger)`, actor.partner.secretKey, actor.partner.publishableKey);
    return sendWith(client, { ...tpl, path: `${u.pathname}${u.search}` }, vars);
  }
  if (base !== service) {
    const baseUrl = base === 'gate' ? env.profile.gate.baseUrls.sandbox : env.profile.pools?.baseUrls.sandbox;
    if (!baseUrl) throw new TemplateError(`trigger names base ${base}, but the profile has no ${base} section`);
    client = env.client(base, baseUrl, `${actor.partner.name} (trigger)`, actor.partner.secretKey, actor.partner.publishableKey);
  }
  return sendWith(client, tpl, vars);
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
  const res = await sendTemplate(env, service, actor, tpl, vars);
  const ok = tpl.expectStatus ? tpl.expectStatus.includes(res.exchange.status) : res.exchange.status >= 200 && res.exchange.status < 300;
  // A sandbox control that does not work leaves the rule unasserted: unverified, and `rampart doctor` names it.
  if (!ok) {
    throw new CheckUnverified(
      `profile trigger ${service}.triggers.${name} answered ${res.exchange.status} (expected ${tpl.expectStatus?.join(' or ') ?? '2xx'}): ${res.exchange.bodyText.slice(0, 200)} — fix the trigger in the profile (rampart doctor checks it)`,
      res.exchange,
    );
  }
  return res;
}
