// The OpenAPI export against the embedded target, as a peer tool would use
// it: fast-check generates requests from the export's own schemas (path and
// query parameters, headers, bodies) and sends them to the embedded target.
// Every request the export calls valid must be accepted, or refused only for
// a documented state reason (a missing or foreign id, a terminal state, the
// pool's runtime legs and bounds, the balance, …); every answer must
// validate against the export (2xx against the success schema, errors
// against the error envelope); no answer is a 5xx. Ids the target hands out
// are fed back into later path parameters and bodies, so requests reach
// existing resources as well as missing ones. Operations whose request body
// the spec does not show (x-rampart-not-shown) are sent with generated bodies
// too, but a 400 there is no finding: the export calls no body valid or
// invalid. At least 200 requests per service.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidEvmAddress } from '../src/model/eip55.js';
import { buildOpenApi, type OpenApiDocument } from '../src/openapi/build.js';
import type { RunningReference } from '../src/reference/server.js';
import { arbitraryOf } from './support/schemaArbitrary.js';
import { startEmbedded } from './support/embedded.js';

type Json = Record<string, any>;
type Service = 'gate' | 'pools';

const RUNS = 600;

interface Operation {
  service: Service;
  method: string;
  path: string;
  op: Json;
}

const docs: Record<Service, OpenApiDocument> = { gate: buildOpenApi('gate'), pools: buildOpenApi('pools') };

function operationsOf(service: Service): Operation[] {
  return Object.entries(docs[service].paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ service, method, path, op: op as Json })));
}

const deref = (doc: OpenApiDocument, node: Json): Json =>
  typeof node?.$ref === 'string'
    ? deref(
        doc,
        node.$ref
          .replace(/^#\//, '')
          .split('/')
          .reduce((o: Json, k: string) => o?.[k], doc as unknown as Json),
      )
    : node;

/** A validator for any schema of the export (its $refs resolve inside the document's components). */
function validatorsOf(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The export's one custom format: EIP-55 for mixed case, format only for single case.
  ajv.addFormat('evm-address', { type: 'string', validate: (v: string) => isValidEvmAddress(v).ok });
  const cache = new Map<string, ValidateFunction>();
  return (schema: Json): ValidateFunction => {
    const key = JSON.stringify(schema);
    let v = cache.get(key);
    if (!v) cache.set(key, (v = ajv.compile({ $id: `s${cache.size}`, components: doc.components, ...schema })));
    return v;
  };
}

/** Ids the target handed out, by kind, fed back into paths and bodies. */
class Seen {
  private ids = new Map<string, string[]>();
  add(kind: string, id: unknown): void {
    if (typeof id !== 'string' || !id) return;
    const list = this.ids.get(kind) ?? [];
    if (!list.includes(id)) list.push(id);
    this.ids.set(kind, list.slice(-40));
  }
  of(kind: string): string[] {
    return this.ids.get(kind) ?? [];
  }
}

/** The kind of id a path parameter or body field takes. */
function kindOf(service: Service, path: string, name: string): string | undefined {
  if (service === 'pools') return name === 'id' ? 'pool' : name === 'quoteId' ? 'quote' : name === 'transactId' ? 'trade' : undefined;
  if (name === 'symbol') return 'asset';
  if (name === 'gate_session_id' || path.startsWith('/gate_sessions')) return 'session';
  if (path.startsWith('/customers')) return 'customer';
  if (path.startsWith('/webhooks/deliveries')) return 'delivery';
  if (path.startsWith('/rails/pay_outs')) return 'payout';
  return undefined;
}

/** What a 2xx answer hands out. */
function harvest(seen: Seen, service: Service, opId: string, body: any): void {
  if (!body || typeof body !== 'object') return;
  const items: any[] = Array.isArray(body.data) ? body.data : Array.isArray(body.pools) ? body.pools : [body];
  for (const x of items) {
    if (service === 'pools') {
      if (opId === 'listPools') seen.add('pool', x.id);
      seen.add('quote', x.quoteId);
      seen.add('trade', x.transactId);
      continue;
    }
    const kind = { gate_session: 'session', customer: 'customer', webhook_delivery: 'delivery', rail_pay_out: 'payout' }[String(x.object)];
    if (kind) seen.add(kind, x.id);
    if (x.object === 'asset') seen.add('asset', x.symbol);
  }
}

/** Refusals that are documented state reasons, by operation (codes are the target's; the statuses are the spec's). */
const STATE_400: Record<string, string[]> = {
  sendTestWebhook: ['webhook_url_missing'],
  // The pool's legs, its supportedNetworks and its order bounds are runtime facts of the pool.
  createPoolQuote: ['currency_mismatch', 'unsupported_network', 'order_size_out_of_bounds'],
  transactPoolQuote: ['quote_pool_mismatch'],
  // The locked quote names its session and side: a quote of another session is a fact of the quote, not of the body.
  createPayOut: ['quote_mismatch'],
};
const STATE_403: Record<string, string[]> = {
  getPoolCapabilities: ['pool_not_allowed'],
  createPoolQuote: ['pool_not_allowed'],
  transactPoolQuote: ['pool_not_allowed'],
  getPoolBalance: ['pool_not_allowed'],
};
const STATE_STATUSES = new Set([402, 404, 409, 429, 501]);

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

const headerSafe = (v: unknown) => typeof v === 'string' && /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v);

describe('the export, generated requests against the embedded target', () => {
  let ref: RunningReference;
  const tally: Record<Service, { sent: number; ok: number; state: number; byStatus: Record<string, number>; operations: Set<string> }> = {
    gate: { sent: 0, ok: 0, state: 0, byStatus: {}, operations: new Set() },
    pools: { sent: 0, ok: 0, state: 0, byStatus: {}, operations: new Set() },
  };

  beforeAll(async () => {
    ref = await startEmbedded({ tweak: (p) => ({ ...p, reference: { ...p.reference!, rateLimits: false } }) });
  });
  afterAll(async () => {
    for (const s of ['gate', 'pools'] as const)
      console.log(
        `${s}: ${tally[s].sent} generated requests over ${tally[s].operations.size} operations — ${tally[s].ok} 2xx, ${tally[s].state} refused for a documented state reason; by status ${JSON.stringify(tally[s].byStatus)}`,
      );
    await ref?.close();
  });

  it('the embedded target states no limit the spec does not state', async () => {
    const gate = ref.profile.gate.partners[0]!;
    const pools = ref.profile.pools!.partners[0]!;
    const call = async (base: string, method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) => {
      const r = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, body: (await r.json()) as Json };
    };
    const g = ref.profile.gate.baseUrls.sandbox;
    // No 512-character bound on the session's strings, no flow list, no sign or digit bound on amount, any URI scheme.
    const session = await call(
      g,
      'POST',
      '/gate_sessions',
      gate.secretKey,
      {
        amount: '0.000000000000000000001',
        currency: 'eur',
        return_url: 'app://done',
        target_token: 't'.repeat(600),
        flow: 'swap',
        note: 'unknown keys are ignored',
      },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    expect(session.body).toMatchObject({ currency: 'EUR', flow: 'swap', target_token: 't'.repeat(600) });
    // No length the spec does not state on an Idempotency-Key, an external_id or a phone; no email format.
    const customer = await call(
      g,
      'POST',
      '/customers',
      gate.secretKey,
      { external_id: 'x'.repeat(300), email: 'not an address', phone: '1'.repeat(40) },
      {
        'idempotency-key': 'k'.repeat(300),
      },
    );
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    expect((await call(g, 'PATCH', '/branding', gate.secretKey, { brand_name: '' })).status).toBe(200);
    // A cursor the partner was never handed is unknown, whatever its characters.
    const page = await call(ref.profile.pools!.baseUrls.sandbox, 'GET', '/pools/trades?cursor=%25%25%20x', pools.secretKey);
    expect(page).toMatchObject({ status: 200, body: { data: [], hasMore: false, nextCursor: null } });
  });

  for (const service of ['gate', 'pools'] as const) {
    it(
      `${service}: ≥ ${RUNS} requests the export calls valid are accepted (or refused for a state reason), and every answer validates`,
      { timeout: 90_000 },
      async () => {
        const doc = docs[service];
        const compile = validatorsOf(doc);
        const ops = operationsOf(service);
        const seen = new Seen();
        const gate = ref.profile.gate.partners[0]!;
        const pools = ref.profile.pools!.partners[0]!;
        const base = service === 'gate' ? ref.profile.gate.baseUrls.sandbox : ref.profile.pools!.baseUrls.sandbox;
        const origin = gate.allowedOrigins?.[0] ?? 'https://example.test';

        // An embed token for the one route that takes it, as the widget runtime holds one.
        const embedToken = async (): Promise<string | undefined> => {
          const r = await fetch(`${base}/embed/bootstrap`, {
            method: 'POST',
            headers: { authorization: `Bearer ${gate.publishableKey}`, origin, 'content-type': 'application/json' },
            body: '{}',
          });
          const b = (await r.json()) as Json;
          return typeof b.embed_token === 'string' ? b.embed_token : undefined;
        };

        const requestOf = (o: Operation): fc.Arbitrary<Sent> => {
          const params = (o.op.parameters ?? []) as Json[];
          const parts: Record<string, fc.Arbitrary<unknown>> = {};
          for (const p of params) {
            const gen = arbitraryOf(p.schema, doc as unknown as Json);
            const kind = p.in === 'path' ? kindOf(service, o.path, p.name) : undefined;
            const known = kind ? seen.of(kind) : [];
            // Existing ids as often as generated ones: the answers of existing resources get validated too.
            const value = known.length ? fc.oneof({ arbitrary: gen, weight: 1 }, { arbitrary: fc.constantFrom(...known), weight: 3 }) : gen;
            const safe = p.in === 'header' ? value.filter(headerSafe) : value;
            parts[`${p.in}:${p.name}`] = p.required ? safe : fc.option(safe, { nil: undefined });
          }
          const rb = o.op.requestBody as Json | undefined;
          const bodySchema = rb?.content?.['application/json']?.schema as Json | undefined;
          let body: fc.Arbitrary<unknown> = fc.constant(undefined);
          if (bodySchema) {
            let gen = arbitraryOf(bodySchema, doc as unknown as Json);
            if (service === 'pools' && o.op.operationId === 'transactPoolQuote' && seen.of('quote').length)
              gen = fc.oneof(
                gen,
                fc.constantFrom(...seen.of('quote')).map((quoteId) => ({ quoteId })),
              );
            if (service === 'gate' && o.op.operationId === 'createPayOut' && seen.of('session').length)
              gen = fc.tuple(gen, fc.constantFrom(...seen.of('session'))).map(([b, id]) => ({ ...(b as Json), gate_session_id: id }));
            body = rb!.required ? gen : fc.option(gen, { nil: undefined });
          }
          return fc.record({ parts: fc.record(parts), body }).map(({ parts: values, body: b }) => {
            let path = o.path;
            const query = new URLSearchParams();
            const headers: Record<string, string> = {};
            for (const [key, v] of Object.entries(values)) {
              if (v === undefined) continue;
              const [where, name] = key.split(':') as [string, string];
              if (where === 'path') path = path.replace(`{${name}}`, encodeURIComponent(String(v)));
              else if (where === 'query') query.set(name, String(v));
              else if (where === 'header') headers[name.toLowerCase()] = String(v);
            }
            if (b !== undefined) headers['content-type'] = 'application/json';
            return { method: o.method.toUpperCase(), url: `${base}${path}${query.size ? `?${query}` : ''}`, headers, ...(b !== undefined ? { body: b } : {}) };
          });
        };

        // The pools quote body names the pool's legs: half the time take them from the pool in the path (runtime facts).
        const withPoolLegs = (o: Operation, s: Sent): fc.Arbitrary<Sent> => {
          if (o.op.operationId !== 'createPoolQuote' || !s.body || typeof s.body !== 'object') return fc.constant(s);
          const pool = /\/pools\/([^/]+)\/quote/.exec(s.url)?.[1];
          const legs = pool ? decodeURIComponent(pool).split('-') : [];
          if (legs.length !== 2) return fc.constant(s);
          return fc.boolean().chain((use) =>
            use
              ? fc.integer({ min: 20, max: 400 }).map((n) => ({
                  ...s,
                  body: { ...(s.body as Json), fiatCurrency: legs[0], cryptoCurrency: legs[1], amount: `${n}.00`, destNetwork: undefined },
                }))
              : fc.constant(s),
          );
        };

        // The discovery reads first, as a client starts: the pools and assets they name seed the path parameters.
        for (const [path, opId] of service === 'pools' ? [['/pools', 'listPools']] : [['/capabilities/assets', 'listCapabilityAssets']]) {
          const r = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${service === 'gate' ? gate.secretKey : pools.secretKey}` } });
          harvest(seen, service, opId!, await r.json());
        }
        const anyRequest = fc.constantFrom(...ops).chain((o) => requestOf(o).chain((s) => withPoolLegs(o, s).map((sent) => ({ o, sent }))));
        const failures: string[] = [];
        let token: string | undefined;

        await fc.assert(
          fc.asyncProperty(anyRequest, async ({ o, sent }) => {
            const opId = String(o.op.operationId);
            const security = Object.keys(((o.op.security as Json[]) ?? [{}])[0] ?? {})[0];
            const headers: Record<string, string> = { ...sent.headers };
            if (security === 'secretKey') headers.authorization = `Bearer ${service === 'gate' ? gate.secretKey : pools.secretKey}`;
            if (security === 'publishableKey')
              headers.authorization = `Bearer ${service === 'gate' ? gate.publishableKey : (pools.publishableKey ?? pools.secretKey)}`;
            if (security === 'embedToken') headers['x-embed-token'] = (token ??= await embedToken()) ?? '';
            // The browser sends the page's origin; the partner's allowed domain is what the embed routes check.
            if (o.path.startsWith('/embed/')) headers.origin = origin;
            const res = await fetch(sent.url, { method: sent.method, headers, ...(sent.body !== undefined ? { body: JSON.stringify(sent.body) } : {}) });
            const text = await res.text();
            let json: unknown;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = text;
            }
            const t = tally[service];
            t.sent++;
            t.operations.add(opId);
            t.byStatus[res.status] = (t.byStatus[res.status] ?? 0) + 1;
            const where = `${sent.method} ${sent.url.replace(base, '')} ${sent.body !== undefined ? JSON.stringify(sent.body).slice(0, 300) : ''}`;
            const responses = o.op.responses as Json;
            if (res.status >= 200 && res.status < 300) {
              t.ok++;
              harvest(seen, service, opId, json);
              const success = deref(doc, responses[String(res.status)] ?? responses['2XX'] ?? {});
              const schema = success?.content?.['application/json']?.schema;
              if (!responses[String(res.status)] && !responses['2XX']) failures.push(`${opId}: ${res.status} is not the documented success status — ${where}`);
              if (schema && Object.keys(schema).length) {
                const v = compile(schema);
                if (!v(json)) failures.push(`${opId}: the ${res.status} answer violates the export: ${JSON.stringify(v.errors?.slice(0, 3))} — ${where}`);
              }
              return;
            }
            if (res.status >= 500) {
              failures.push(`${opId}: ${res.status} ${text.slice(0, 200)} — ${where}`);
              return;
            }
            const err = compile({ $ref: '#/components/schemas/Error' });
            if (!err(json)) failures.push(`${opId}: the ${res.status} error body violates the envelope: ${JSON.stringify(err.errors?.slice(0, 2))} — ${where}`);
            const code = (json as Json)?.code as string | undefined;
            const documented = responses[String(res.status)] !== undefined;
            const notShownBody = (o.op.requestBody as Json | undefined)?.['x-rampart-not-shown'] === true;
            const state =
              documented &&
              (STATE_STATUSES.has(res.status) ||
                (res.status === 400 && (notShownBody || (STATE_400[opId] ?? []).includes(code ?? ''))) ||
                (res.status === 403 && (STATE_403[opId] ?? []).includes(code ?? '')));
            if (state) t.state++;
            else
              failures.push(
                `${opId}: a request the export calls valid was refused: ${res.status} ${code ?? ''} ${String((json as Json)?.message ?? '').slice(0, 200)} — ${where}`,
              );
          }),
          { numRuns: RUNS, seed: 20260525, endOnFailure: false },
        );
        expect(failures.slice(0, 25)).toEqual([]);
        expect(tally[service].sent).toBeGreaterThanOrEqual(200);
        // Not only refusals: a good share of what was sent was accepted.
        expect(tally[service].ok).toBeGreaterThan(tally[service].sent / 5);
      },
    );
  }
});
