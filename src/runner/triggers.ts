// Profile request templates: {{placeholders}} filled from variables, sent with
// the acting partner's client, values extracted from the JSON response.
import { randomUUID } from 'node:crypto';
import type { ApiClient, Exchange } from '../client/types.js';
import type { RequestTemplate } from '../profile/schema.js';

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
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]));
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

export async function sendTemplate(
  client: ApiClient,
  tpl: RequestTemplate,
  vars: Record<string, string>,
): Promise<{ exchange: Exchange; values: Record<string, unknown> }> {
  const path = fill(tpl.path, vars);
  if (/^https?:\/\//.test(path)) throw new TemplateError(`trigger path must be relative to the ${tpl.base} base URL: ${path}`);
  const exchange = await client.request({
    method: tpl.method,
    path,
    body: tpl.body === undefined ? undefined : fillDeep(tpl.body, vars),
    headers: tpl.headers ? (fillDeep(tpl.headers, vars) as Record<string, string>) : undefined,
    auth: tpl.auth === 'none' ? 'none' : 'secret',
  });
  const values: Record<string, unknown> = {};
  for (const [name, dotted] of Object.entries(tpl.extract ?? {})) values[name] = pick(exchange.json, dotted);
  return { exchange, values };
}
