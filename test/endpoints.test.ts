// The endpoint table is the specs' Endpoints sections as data: every row once,
// nothing invented, route groups agreeing with src/model/limits.ts.
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, GATE_ENDPOINTS, POOLS_ENDPOINTS, endpointsOf, findEndpoint, type Endpoint } from '../src/model/endpoints/index.js';
import { gateRouteGroup } from '../src/model/limits.js';
import { specText } from '../src/model/specText.js';

type Op = `${string} ${string}`;
const key = (method: string, path: string): Op => `${method.toUpperCase()} ${path}`;

function section(md: string, from: string, to: string): string {
  const a = md.indexOf(from);
  const b = md.indexOf(to, a + from.length);
  if (a < 0 || b < 0) throw new Error(`section ${from} … ${to} not found`);
  return md.slice(a, b);
}

/** Every operation of an Endpoints section: method/path table rows, the all-GET capabilities table, the Dashboard sentence. */
function specOperations(endpointsSection: string): Op[] {
  const ops: Op[] = [];
  for (const m of endpointsSection.matchAll(/^\| (GET|POST|PATCH|PUT|DELETE) \| (\/[^ |]*) \|/gm)) ops.push(key(m[1]!, m[2]!));
  // "### Capabilities (all GET, …)": the path column lists one or more paths.
  const caps = /### Capabilities \(all GET[\s\S]*?(?=\n### )/.exec(endpointsSection)?.[0] ?? '';
  for (const m of caps.matchAll(/^\| (\/[^|]+?) \|/gm)) for (const p of m[1]!.split(/,\s*/)) ops.push(key('GET', p.trim()));
  // "Paths named: GET `/dashboard/usage`, GET and PATCH `/dashboard/webhook-settings`, …"
  const named = /Paths named: (.*)/.exec(endpointsSection)?.[1] ?? '';
  for (const m of named.matchAll(/((?:GET|POST|PATCH|PUT|DELETE)(?: and (?:GET|POST|PATCH|PUT|DELETE))*) `(\/[^`]+)`/g))
    for (const method of m[1]!.split(' and ')) ops.push(key(method, m[2]!));
  return ops;
}

/** Every "METHOD /path" mention anywhere in a spec (prose, Limits table, Events), "GET and PATCH /x" included. */
function mentionedOperations(md: string): Op[] {
  const ops: Op[] = [];
  for (const m of md.matchAll(/\b((?:GET|POST|PATCH|PUT|DELETE)(?: and (?:GET|POST|PATCH|PUT|DELETE))*) `?(\/[A-Za-z0-9_{}\-/]+)/g))
    for (const method of m[1]!.split(' and ')) ops.push(key(method, m[2]!.replace(/\/$/, '')));
  return ops;
}

const tableOps = (eps: readonly Endpoint[]) => eps.map((e) => key(e.method, e.path));

// The spec texts bundled with the model (src/model/text/): the ones the table was built from.
describe('endpoint table against the spec text', () => {
  const gateMd = specText('gate');
  const poolsMd = specText('pools');

  it.each([
    ['gate', () => gateMd, 38],
    ['pools', () => poolsMd, 12],
  ] as const)('every %s Endpoints-section operation appears exactly once in the table, and the table holds nothing else', (service, md, expectedCount) => {
    const spec = specOperations(section(md(), '\n## Endpoints', '\n## Authentication'));
    // The parser itself must have found the rows: a parser that finds nothing would prove nothing.
    expect(spec.length).toBe(expectedCount);
    expect(new Set(spec).size).toBe(spec.length);
    const table = tableOps(endpointsOf(service));
    for (const op of spec)
      expect(
        table.filter((t) => t === op),
        op,
      ).toHaveLength(1);
    expect([...table].sort()).toEqual([...spec].sort());
  });

  it.each([
    ['gate', () => gateMd, 20],
    ['pools', () => poolsMd, 4],
  ] as const)('every "METHOD /path" the %s spec names anywhere (Limits, Events, prose) is a documented operation of the table', (service, md, atLeast) => {
    const mentions = mentionedOperations(md());
    expect(mentions.length).toBeGreaterThanOrEqual(atLeast);
    const table = new Set(tableOps(endpointsOf(service)));
    const unknown = [...new Set(mentions)].filter((op) => !table.has(op));
    expect(unknown).toEqual([]);
  });

  it('section names are headings of the spec they cite', () => {
    for (const e of ENDPOINTS) {
      const md = e.service === 'gate' ? gateMd : poolsMd;
      for (const part of e.section.split(' > ')) expect(md, `${e.id}: ${e.section}`).toMatch(new RegExp(`^#{2,3} ${part.replace(/[()]/g, '\\$&')}`, 'm'));
    }
  });
});

describe('endpoint table, self-consistency', () => {
  it('operation ids and method+path pairs are unique across both services', () => {
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(ENDPOINTS.length);
    for (const s of ['gate', 'pools'] as const) {
      const ops = tableOps(endpointsOf(s));
      expect(new Set(ops).size).toBe(ops.length);
    }
    expect(GATE_ENDPOINTS.length + POOLS_ENDPOINTS.length).toBe(ENDPOINTS.length);
  });

  it('every Gate route group agrees with src/model/limits.ts gateRouteGroup (unlisted routes keep the default windows)', () => {
    for (const e of GATE_ENDPOINTS) {
      const concrete = e.path.replace(/\{[^}]+\}/g, 'x_1');
      expect(gateRouteGroup(e.method, concrete), `${e.method} ${e.path}`).toBe(e.routeGroup ?? 'default');
    }
    // Only POST /embed/refresh is absent from the Limits table.
    expect(GATE_ENDPOINTS.filter((e) => !e.routeGroup).map((e) => `${e.method} ${e.path}`)).toEqual(['POST /embed/refresh']);
    expect(POOLS_ENDPOINTS.every((e) => e.routeGroup === undefined)).toBe(true);
  });

  it('one schema name stands for one zod schema (so components are unambiguous)', () => {
    const byName = new Map<string, z.ZodType>();
    for (const e of ENDPOINTS) {
      const named = [e.success.body, e.request.kind === 'json' ? e.request.body : undefined].filter((x) => x !== undefined);
      for (const { name, schema } of named) {
        if (byName.has(name)) expect(byName.get(name), name).toBe(schema);
        byName.set(name, schema);
      }
    }
    expect(byName.size).toBeGreaterThan(20);
  });

  it('path parameters are exactly the template placeholders, and every route documents 401', () => {
    for (const e of ENDPOINTS) {
      const placeholders = [...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(
        e.params.filter((p) => p.in === 'path').map((p) => p.name),
        e.id,
      ).toEqual(placeholders);
      expect(
        e.errors.map((x) => x.status),
        e.id,
      ).toContain(401);
    }
  });

  it('documented constraints are carried: deliveries limit 1–200 default 50, trades limit 1–100, funding EUR only', () => {
    const limitOf = (id: string, name: string) => ENDPOINTS.find((e) => e.id === id)!.params.find((p) => p.name === name)!.schema;
    const deliveries = limitOf('listWebhookDeliveries', 'limit');
    expect(deliveries.safeParse(0).success).toBe(false);
    expect(deliveries.safeParse(201).success).toBe(false);
    expect(deliveries.parse(undefined)).toBe(50);
    const trades = limitOf('listTrades', 'limit');
    expect(trades.safeParse(100).success).toBe(true);
    expect(trades.safeParse(101).success).toBe(false);
    expect(limitOf('getFunding', 'currency').safeParse('USD').success).toBe(false);
  });

  it('stated success statuses are kept (200 retrieve, 201 pay-out) and "not shown" ones stay 2XX', () => {
    const status = (id: string) => ENDPOINTS.find((e) => e.id === id)!.success.status;
    expect(status('getGateSession')).toBe(200);
    expect(status('createPayOut')).toBe(201);
    expect(status('deleteCustomer')).toBe(200);
    expect(status('createGateSession')).toBe('2XX');
    expect(ENDPOINTS.find((e) => e.id === 'createCustomer')!.success.body).toBeUndefined();
  });

  it('findEndpoint resolves concrete paths, literal segments before templates', () => {
    expect(findEndpoint('gate', 'POST', '/gate_sessions/gs_1/cancel')?.id).toBe('cancelGateSession');
    expect(findEndpoint('gate', 'get', '/capabilities/assets/USDC?side=off_ramp')?.id).toBe('getCapabilityAsset');
    expect(findEndpoint('pools', 'GET', '/pools/funding')?.id).toBe('getFunding');
    expect(findEndpoint('pools', 'GET', '/pools/trades/t_1')?.id).toBe('getTrade');
    expect(findEndpoint('pools', 'GET', '/pools/EUR-USDT/balance')?.id).toBe('getPoolBalance');
    expect(findEndpoint('gate', 'PUT', '/branding')).toBeUndefined();
  });
});
