// The OpenAPI 3.1 export: valid documents, every endpoint of the table, the
// documented constraints, open "not shown" shapes and working flow links.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endpointsOf } from '../src/model/endpoints/index.js';
import { SPEC_VERSION } from '../src/model/limits.js';
import { FLOW_LINKS } from '../src/openapi/links.js';
import { buildOpenApi, type OpenApiDocument } from '../src/openapi/build.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-openapi-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Json = Record<string, any>;
const SERVICES = ['gate', 'pools'] as const;
const docs = { gate: buildOpenApi('gate'), pools: buildOpenApi('pools') };

function operations(doc: OpenApiDocument): { path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
}

/** Follows $ref inside the document. */
function deref(doc: OpenApiDocument, node: Json): Json {
  let n = node;
  for (let i = 0; i < 10 && n && typeof n.$ref === 'string'; i++) {
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: Json, k: string) => o?.[k], doc as unknown as Json);
  }
  return n;
}

/** Does a JSON pointer into a response body name a property the schema documents? Arrays take a numeric segment; unions pass if a branch does. */
function pointerDocumented(doc: OpenApiDocument, schema: Json, segments: string[]): boolean {
  const s = deref(doc, schema);
  if (!s) return false;
  if (segments.length === 0) return true;
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) return s[key].some((b: Json) => pointerDocumented(doc, b, segments));
  const [head, ...rest] = segments;
  if (/^\d+$/.test(head!) && s.items) return pointerDocumented(doc, s.items, rest);
  return s.properties?.[head!] !== undefined && pointerDocumented(doc, s.properties[head!], rest);
}

/** Every schema node reachable from a start node, $refs followed once. */
function reachable(doc: OpenApiDocument, start: Json): Json[] {
  const out: Json[] = [];
  const seen = new Set<Json>();
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const node = deref(doc, n as Json);
    if (!node || seen.has(node)) return;
    seen.add(node);
    out.push(node);
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') walk(v);
    }
  };
  walk(start);
  return out;
}

describe.each(SERVICES)('OpenAPI document of %s', (service) => {
  const doc = docs[service];

  it('validates as OpenAPI 3.1 (@seriousme/openapi-schema-validator) and every $ref resolves', async () => {
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(res.errors).toBeUndefined();
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    const ops = operations(doc).length;
    const schemas = Object.keys(doc.components.schemas).length;
    console.log(`openapi ${service}: ${ops} operations, ${schemas} component schemas`);
  });

  it('every component schema compiles as JSON Schema 2020-12 (ajv)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    for (const name of Object.keys(doc.components.schemas)) expect(() => ajv.getSchema(`doc#/components/schemas/${name}`), name).not.toThrow();
  });

  it('holds every endpoint of the table exactly once, with its operationId, auth and documented statuses', () => {
    const table = endpointsOf(service);
    const ops = operations(doc);
    expect(ops).toHaveLength(table.length);
    for (const e of table) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()] as Json | undefined;
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op!.operationId).toBe(e.id);
      expect(op!['x-rampart-auth']).toBe(e.auth);
      expect(Object.keys(op!.responses)).toContain(String(e.success.status));
      for (const x of e.errors) expect(Object.keys(op!.responses), `${e.id} ${x.status}`).toContain(String(x.status));
      // The error envelope answers everything else.
      expect(op!.responses.default).toEqual({ $ref: '#/components/responses/Error' });
      expect(op!.responses['5XX']).toEqual({ $ref: '#/components/responses/ServerError' });
      if (service === 'gate') expect(op!['x-rampart-route-group']).toBe(e.routeGroup ?? 'default');
    }
  });

  it('info.version is the spec version and every server is a base address ending in /v1', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(SPEC_VERSION);
    expect(doc.servers.length).toBe(2);
    for (const s of doc.servers) {
      const url = s.url.replace(/\{(\w+)\}/g, (_m, v: string) => s.variables[v]!.default);
      expect(url).toMatch(/\/v1$/);
    }
  });

  it('response schemas never forbid unknown fields; the error envelope is the documented one', () => {
    for (const { op } of operations(doc)) {
      for (const [status, resp] of Object.entries(op.responses as Json)) {
        const schema = deref(doc, resp as Json)?.content?.['application/json']?.schema;
        expect(schema, `${op.operationId} ${status}`).toBeDefined();
        for (const node of reachable(doc, schema)) expect(node.additionalProperties, `${op.operationId} ${status}`).not.toBe(false);
      }
    }
    const error = doc.components.schemas.Error as Json;
    expect(error.required).toEqual(['type', 'code', 'message', 'request_id', 'doc_url', 'statusCode']);
    expect(error.properties.type.enum).toEqual(['invalid_request', 'not_found', 'conflict', 'unauthorized', 'forbidden', 'rate_limited', 'server_error']);
  });

  it('"not shown" shapes stay open: an empty schema, never invented fields', () => {
    for (const e of endpointsOf(service)) {
      const op = doc.paths[e.path]![e.method.toLowerCase()] as Json;
      const success = op.responses[String(e.success.status)].content['application/json'].schema;
      if (!e.success.body) expect(success, e.id).toEqual({});
      if (e.request.kind === 'notShown') expect(op.requestBody.content['application/json'].schema, e.id).toEqual({});
      if (e.request.kind === 'none') expect(op.requestBody, e.id).toBeUndefined();
    }
  });

  it('every flow link targets an operation of the document, with its parameters, following documented response fields', () => {
    const links = FLOW_LINKS.filter((l) => l.service === service);
    expect(links.length).toBeGreaterThan(3);
    const byId = new Map(operations(doc).map((o) => [o.op.operationId as string, o.op]));
    for (const l of links) {
      const from = byId.get(l.from)!;
      const to = byId.get(l.to);
      expect(to, l.to).toBeDefined();
      const success = Object.entries(from.responses as Json).find(([k]) => /^2/.test(k))![1] as Json;
      expect(success.links[l.name].operationId).toBe(l.to);
      const targetParams = new Set(((to!.parameters ?? []) as Json[]).map((p) => p.name));
      for (const [param, expr] of Object.entries(l.parameters)) {
        expect(targetParams.has(param), `${l.name}: ${param}`).toBe(true);
        const pointer = /^\$response\.body#\/(.*)$/.exec(expr);
        if (pointer) expect(pointerDocumented(doc, success.content['application/json'].schema, pointer[1]!.split('/')), `${l.name}: ${expr}`).toBe(true);
        const pathRef = /^\$request\.path\.(\w+)$/.exec(expr);
        if (pathRef)
          expect(
            ((from.parameters ?? []) as Json[]).some((p) => p.in === 'path' && p.name === pathRef[1]),
            `${l.name}: ${expr}`,
          ).toBe(true);
      }
    }
  });
});

describe('OpenAPI content', () => {
  it('security schemes: bearer secret key, bearer publishable key, and the X-Embed-Token header on Gate', () => {
    expect(docs.gate.components.securitySchemes).toMatchObject({
      secretKey: { type: 'http', scheme: 'bearer' },
      publishableKey: { type: 'http', scheme: 'bearer' },
      embedToken: { type: 'apiKey', in: 'header', name: 'X-Embed-Token' },
    });
    expect(Object.keys(docs.pools.components.securitySchemes).sort()).toEqual(['publishableKey', 'secretKey']);
    expect((docs.gate.paths['/embed/bootstrap']!.post as Json).security).toEqual([{ publishableKey: [] }]);
    expect((docs.pools.paths['/pools']!.get as Json).security).toEqual([{ publishableKey: [] }, { secretKey: [] }]);
  });

  it('parameters carry their documented constraints (limits, defaults, enums, required Idempotency-Key)', () => {
    const param = (doc: OpenApiDocument, path: string, method: string, name: string) =>
      ((doc.paths[path]![method] as Json).parameters as Json[]).find((p) => p.name === name)!;
    expect(param(docs.gate, '/webhooks/deliveries', 'get', 'limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    expect(param(docs.gate, '/webhooks/deliveries', 'get', 'skip').schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(param(docs.gate, '/webhooks/deliveries', 'get', 'status').schema.enum).toEqual(['pending', 'in_flight', 'succeeded', 'dead_lettered']);
    expect(param(docs.pools, '/pools/trades', 'get', 'limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    expect(param(docs.pools, '/pools/funding', 'get', 'currency').schema).toMatchObject({ enum: ['EUR'], default: 'EUR' });
    expect(param(docs.gate, '/gate_sessions', 'post', 'Idempotency-Key')).toMatchObject({ in: 'header', required: true, schema: { format: 'uuid' } });
    expect(param(docs.pools, '/pools/{id}/transact', 'post', 'Idempotency-Key').required).toBe(true);
    expect(param(docs.gate, '/customers', 'post', 'Idempotency-Key').required).toBe(false);
  });

  it('Gate operations state their three rate windows (route-specific first window)', () => {
    expect((docs.gate.paths['/gate_sessions']!.post as Json).description).toContain('Rate limits per client: 10 per 1 min, 60 per 1 min, 300 per 1 h.');
    expect((docs.gate.paths['/dashboard/webhook-settings']!.get as Json).description).toContain(
      'Rate limits per client: 10 per 10 s, 60 per 1 min, 300 per 1 h.',
    );
    expect((docs.gate.paths['/embed/refresh']!.post as Json).description).toContain('(route not in the Limits table: default windows)');
  });

  it('request bodies: strict only where unknown keys give 400 (BrandingUpdate, CustomerUpdate); the pools quote needs destAddress on on_ramp', () => {
    const s = docs.gate.components.schemas as Json;
    expect(s.BrandingUpdate.additionalProperties).toBe(false);
    expect(s.CustomerUpdate.additionalProperties).toBe(false);
    expect(s.PayOutBody.additionalProperties).not.toBe(false);
    expect(s.PayOutBody.required).toEqual(['gate_session_id', 'quote_id']);
    expect(s.PayOutBody.properties.reference.maxLength).toBe(128);
    const ajv = new Ajv2020({ strict: false });
    const quote = ajv.compile({ $id: 'q', components: docs.pools.components, $ref: '#/components/schemas/QuoteBody' });
    const body = { side: 'on_ramp', fiatCurrency: 'EUR', cryptoCurrency: 'USDT', amount: '100.00' };
    expect(quote(body)).toBe(false);
    expect(quote({ ...body, destAddress: '0x' + 'ab'.repeat(20) })).toBe(true);
    expect(quote({ ...body, side: 'off_ramp' })).toBe(true);
  });

  it('every documented constraint is in the export: codes, URIs, dates, prefixes, required bodies, refused fields', () => {
    const g = docs.gate.components.schemas as Json;
    const p = docs.pools.components.schemas as Json;
    const param = (doc: OpenApiDocument, path: string, method: string, name: string) =>
      ((doc.paths[path]![method] as Json).parameters as Json[]).find((x) => x.name === name)!;
    // "currency (ISO 4217)", held "uppercased": an alphabetic code of three letters, either case on the way in.
    expect(g.CreateGateSessionBody.properties.currency.pattern).toBe('^[A-Za-z]{3}$');
    expect(g.CreateGateSessionBody.required).toEqual(['amount', 'currency', 'return_url']);
    expect(g.CreateGateSessionBody.properties.return_url).toMatchObject({ type: 'string', format: 'uri' });
    expect(g.CreateGateSessionBody.properties.cancel_url).toMatchObject({ type: 'string', format: 'uri' });
    expect(g.CreateGateSessionBody.properties.amount.pattern).toBe(p.QuoteBody.oneOf[0].properties.amount.pattern);
    expect(g.BrandingUpdate.properties.logo_url).toMatchObject({ format: 'uri', pattern: '^https:\\/\\/', maxLength: 2048 });
    expect(g.EmbedBootstrapBody.properties.clientSecret.pattern).toBe('^gsec_');
    expect(param(docs.gate, '/capabilities/payment-methods', 'get', 'currency').schema.pattern).toBe('^[A-Z]{3}$');
    expect(param(docs.gate, '/capabilities/eligibility', 'get', 'country_code').schema.pattern).toBe('^[A-Za-z]{2}$');
    // POST /customers: a required object; the fields every Customer holds from its creation; server-managed ones refused.
    expect((docs.gate.paths['/customers']!.post as Json).requestBody).toMatchObject({ required: true });
    expect(g.CreateCustomerBody).toMatchObject({ type: 'object', required: ['external_id', 'email', 'phone'] });
    expect(g.CreateCustomerBody.properties.kyc_status).toMatchObject({ not: {} });
    expect(g.CreateCustomerBody.properties.first_name.anyOf[0].maxLength).toBe(128);
    for (const k of ['amount', 'currency', 'method']) expect(g.PayOutBody.properties[k], k).toMatchObject({ not: {} });
    expect(param(docs.pools, '/pools/trades', 'get', 'created_after').schema).toMatchObject({ type: 'string', format: 'date-time' });
    expect(param(docs.pools, '/pools/trades', 'get', 'created_before').schema).toMatchObject({ type: 'string', format: 'date-time' });
    expect(p.QuoteBody.oneOf[0].properties.fiatCurrency.pattern).toBe('^[A-Z]{3}$');
    expect(p.QuoteBody.oneOf[0].properties.destAddress).toMatchObject({ pattern: '^0x[0-9a-fA-F]{40}$', format: 'evm-address' });
    // Bodies the spec does not show stay open, and say so.
    expect((docs.gate.paths['/quotes/preview']!.post as Json).requestBody).toMatchObject({ required: false, 'x-rampart-not-shown': true });
    expect((docs.gate.paths['/quotes/preview']!.post as Json).responses['400']).toBeDefined();
  });

  it('nothing the spec leaves open is pinned: transact answers the trade in any state (a safe retry returns the existing one)', () => {
    const answer = (docs.pools.paths['/pools/{id}/transact']!.post as Json).responses['2XX'].content['application/json'].schema;
    const schema = deref(docs.pools, answer);
    expect(schema.properties.status.enum).toEqual(['quoted', 'reserved', 'settled', 'released', 'failed', 'returned']);
    expect(schema.required).toEqual(['transactId', 'quoteId', 'status']);
  });

  it('a documented response with an unknown extra field still validates (additive changes are allowed)', () => {
    const ajv = new Ajv2020({ strict: false });
    const check = ajv.compile({ $id: 'g', components: docs.gate.components, $ref: '#/components/schemas/GateSession' });
    const session = {
      id: 'gs_1',
      object: 'gate_session',
      partner_id: 'p_1',
      mode: 'test',
      amount: '25.00',
      currency: 'EUR',
      return_url: 'https://partner.example/done',
      cancel_url: null,
      status: 'open',
      expires_at: '2026-05-25T10:00:00Z',
      created_at: null,
      flow: null,
      target_token: null,
      target_network: null,
      wallet_address: null,
      user_reference: null,
      metadata: {},
      kyc_pre_verified: false,
    };
    expect(check(session)).toBe(true);
    expect(check({ ...session, brand_new_field: { nested: true } })).toBe(true);
    expect(check({ ...session, status: 'paused' })).toBe(false);
  });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'bin/rampart.js'), ...args],
      { cwd: root, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

describe('rampart openapi', () => {
  it('--out writes the same document buildOpenApi returns, and says how many operations and schemas', async () => {
    const out = join(tmp, 'pools.json');
    const r = await cli(['openapi', '--service', 'pools', '--out', out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(JSON.stringify(docs.pools)));
    expect(r.stdout).toMatch(/12 operations, \d+ schemas/);
  });

  it('without --out the document goes to stdout', async () => {
    const r = await cli(['openapi', '--service', 'gate']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).info.version).toBe(SPEC_VERSION);
  });

  it('a bad or missing --service is a usage error: exit 2, one line', async () => {
    for (const args of [['openapi', '--service', 'gates'], ['openapi']]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
  });
});
