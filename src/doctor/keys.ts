// Each key answers as its declared kind and mode, each partner trait as
// declared: a test secret key reads (and an extra key of the same partner sees
// that partner's session), a publishable key bootstraps from an allowed origin,
// revoked and live keys are refused on the sandbox (403), rail entitlement and
// "no webhook URL" answer as declared; a pools key answers as its state. One or
// two cheap requests per key, paced; keys reserved for load are left alone
// unless asked (their rate windows must start empty).
import { randomUUID } from 'node:crypto';
import type { ApiClient, Exchange } from '../client/types.js';
import type { GatePartner, PoolsPartner } from '../profile/schema.js';
import { answered, ok2xx, type DoctorContext, type RowDraft } from './context.js';
import { editGatePartner, editPoolsPartner, withoutGateField } from './edits.js';

/** Partners checked at once (each has its own keys, so their pacing never competes). */
const PARALLEL = 4;

const line = (r: Exchange | string) => (typeof r === 'string' ? r : answered(r));

export async function checkKeys(ctx: DoctorContext): Promise<void> {
  await inBatches(ctx, ctx.profile.gate.partners, (p) => gateKeys(ctx, p));
  await inBatches(ctx, ctx.profile.pools?.partners ?? [], (p) => poolsKeys(ctx, p));
}

/** Rows of several partners made at once, then recorded in profile order. */
async function inBatches<P>(ctx: DoctorContext, partners: readonly P[], rowsOf: (p: P) => Promise<RowDraft[]>): Promise<void> {
  for (let i = 0; i < partners.length; i += PARALLEL) {
    const batch = await Promise.all(partners.slice(i, i + PARALLEL).map(rowsOf));
    for (const rows of batch) for (const r of rows) ctx.row(r);
  }
}

/** What every step of a Gate partner's key rows uses: the partner, its client, the row prefix and the rows so far. */
interface GatePartnerTrial {
  ctx: DoctorContext;
  p: GatePartner;
  /** "gate partner <name>": each row's name starts with it. */
  f: string;
  c: ApiClient;
  row: (r: Omit<RowDraft, 'area'>) => void;
}

async function gateKeys(ctx: DoctorContext, p: GatePartner): Promise<RowDraft[]> {
  const rows: RowDraft[] = [];
  const f = `gate partner ${p.name}`;
  const row = (r: Omit<RowDraft, 'area'>) => rows.push({ area: 'key', ...r });
  if (p.reservedFor === 'load' && !ctx.opts.includeLoadKeys) {
    row({
      name: `${f}: keys`,
      status: 'not checked',
      detail: 'reserved for load: its rate windows stay empty for the load scenarios (rampart doctor --include-load-keys presents it)',
    });
    return rows;
  }
  const t: GatePartnerTrial = { ctx, p, f, c: ctx.gateClient(p), row };
  const skOk = await secretKeyReads(t);
  if (p.extraSecretKeys?.length) await extraKeysSameTenant(t, skOk);
  if (p.publishableKey) await publishableKeyBootstraps(t, p.publishableKey);
  await refusedKeysRefused(t);
  if (p.rails !== undefined && skOk) await railsAsDeclared(t, p.rails);
  if (p.noWebhookUrl && skOk) await noWebhookUrlAsDeclared(t);
  return rows;
}

/** An embed bootstrap with a key, from the partner's first allowed origin. */
const bootstrap = ({ ctx, p, c }: GatePartnerTrial, key: string) =>
  ctx.call(c, { method: 'POST', path: '/embed/bootstrap', body: {}, headers: { origin: p.allowedOrigins![0]! }, auth: { bearer: key } });

/** The test secret key reads on the sandbox: whether it did. */
async function secretKeyReads({ ctx, p, f, c, row }: GatePartnerTrial): Promise<boolean> {
  const withoutPartner = editGatePartner(p.name, () => undefined);
  const sk = await ctx.call(c, { method: 'GET', path: '/capabilities/assets' });
  const skOk = typeof sk !== 'string' && sk.status === 200;
  if (skOk) row({ name: `${f}: secretKey`, status: 'ok', detail: 'answers 200 on the sandbox', without: withoutPartner });
  else row({ name: `${f}: secretKey`, status: 'broken', detail: line(sk), without: withoutPartner, fix: 'the test secret key of this partner (sk_test_…)' });
  return skOk;
}

/** Each extra secret key is the same tenant: a session made with the partner's key reads with it (another partner's key would get 404). */
async function extraKeysSameTenant({ ctx, p, f, c, row }: GatePartnerTrial, skOk: boolean): Promise<void> {
  const made = skOk ? await ctx.call(c, { method: 'POST', path: '/gate_sessions', body: sessionBody(ctx), idempotencyKey: true }) : undefined;
  const sid = made && typeof made !== 'string' && ok2xx(made) && typeof made.json?.id === 'string' ? (made.json.id as string) : undefined;
  for (const [i, key] of (p.extraSecretKeys ?? []).entries()) {
    const name = `${f}: extraSecretKeys[${i}]`;
    const without = editGatePartner(p.name, (g) => ({ ...g, extraSecretKeys: g.extraSecretKeys?.filter((k) => k !== key) }));
    const fix = 'another test secret key of this same partner (sk_test_…)';
    if (!sid) {
      const r = await ctx.call(c, { method: 'GET', path: '/capabilities/assets', auth: { bearer: key } });
      if (typeof r !== 'string' && r.status === 200)
        row({ name, status: 'ok', detail: 'answers 200 on the sandbox (its tenant not checked: no session of the partner to read)', without });
      else row({ name, status: 'broken', detail: line(r), without, fix });
      continue;
    }
    const r = await ctx.call(c, { method: 'GET', path: `/gate_sessions/${encodeURIComponent(sid)}`, auth: { bearer: key } });
    if (typeof r !== 'string' && r.status === 200) row({ name, status: 'ok', detail: "reads the partner's own session: the same tenant", without });
    else if (typeof r !== 'string' && r.status === 404)
      row({
        name,
        status: 'broken',
        detail: "a valid key, but the partner's session reads 404 with it: it is another tenant's key",
        without,
        fix: 'a key of this same partner; a key of another partner is another tenant (list it under that partner)',
      });
    else row({ name, status: 'broken', detail: line(r), without, fix });
  }
}

/** The publishable key bootstraps from an allowed origin. */
async function publishableKeyBootstraps(t: GatePartnerTrial, publishableKey: string): Promise<void> {
  const { p, f, row } = t;
  const without = withoutGateField(p.name, 'publishableKey');
  if (!p.allowedOrigins?.length)
    row({
      name: `${f}: publishableKey`,
      status: 'not checked',
      detail: 'no allowedOrigins to bootstrap from',
      without,
      fix: 'allowedOrigins (the exact origins of its embed domains)',
    });
  else {
    const r = await bootstrap(t, publishableKey);
    if (typeof r !== 'string' && ok2xx(r)) row({ name: `${f}: publishableKey`, status: 'ok', detail: `bootstraps from ${p.allowedOrigins[0]}`, without });
    else
      row({
        name: `${f}: publishableKey`,
        status: 'broken',
        detail: `bootstrap from ${p.allowedOrigins[0]} ${line(r)}`,
        without,
        fix: 'the publishable key (pk_test_…) and the exact allowed origins of this partner',
      });
  }
}

/** Keys the sandbox must refuse with 403: revoked ones, and live ones (mode mismatch). */
async function refusedKeysRefused(t: GatePartnerTrial): Promise<void> {
  const { ctx, p, f, c, row } = t;
  const refused: { field: 'revokedSecretKey' | 'liveSecretKey' | 'revokedPublishableKey' | 'livePublishableKey'; why: string; fix: string }[] = [
    { field: 'revokedSecretKey', why: 'revoked', fix: 'a key of this partner that the target has revoked' },
    { field: 'liveSecretKey', why: 'mode mismatch', fix: 'a live secret key (sk_live_…) of this partner' },
    { field: 'revokedPublishableKey', why: 'revoked', fix: 'a publishable key of this partner that the target has revoked' },
    { field: 'livePublishableKey', why: 'mode mismatch', fix: 'a live publishable key (pk_live_…) of this partner' },
  ];
  for (const k of refused) {
    const key = p[k.field];
    if (!key) continue;
    const without = withoutGateField(p.name, k.field);
    const publishable = k.field.endsWith('PublishableKey');
    if (publishable && !p.allowedOrigins?.length) {
      row({
        name: `${f}: ${k.field}`,
        status: 'not checked',
        detail: 'no allowedOrigins: a refusal could be about the origin',
        without,
        fix: 'allowedOrigins',
      });
      continue;
    }
    const r = publishable ? await bootstrap(t, key) : await ctx.call(c, { method: 'GET', path: '/capabilities/assets', auth: { bearer: key } });
    const where = publishable ? `bootstrap from ${p.allowedOrigins![0]}` : 'GET /capabilities/assets';
    if (typeof r !== 'string' && r.status === 403) row({ name: `${f}: ${k.field}`, status: 'ok', detail: `${where} refused with 403 (${k.why})`, without });
    else row({ name: `${f}: ${k.field}`, status: 'broken', detail: `${where} ${line(r)} (expected 403, ${k.why})`, without, fix: k.fix });
  }
}

/** A rail read of an id no one has: 403 means not entitled; 404 (or 400, an id format the target refuses) means the route is open to it. */
async function railsAsDeclared({ ctx, p, f, c, row }: GatePartnerTrial, rails: boolean): Promise<void> {
  const r = await ctx.call(c, { method: 'GET', path: `/rails/pay_outs/${randomUUID()}` });
  const refusedRails = typeof r !== 'string' && r.status === 403;
  const open = typeof r !== 'string' && (r.status === 404 || r.status === 400);
  const name = `${f}: rails ${rails}`;
  const without = withoutGateField(p.name, 'rails');
  if ((rails && open) || (!rails && refusedRails))
    row({ name, status: 'ok', detail: rails ? `rail routes open (${(r as Exchange).status} for an unknown id)` : 'rail routes refused (403)', without });
  else
    row({
      name,
      status: 'broken',
      detail: `a rail read ${line(r)}`,
      without,
      fix: typeof r === 'string' ? 'check the target' : `rails: ${!rails} (what the target says about this partner)`,
    });
}

/** POST /webhooks/test gives 400 when no webhook_url is configured; a 2xx means the partner has one. */
async function noWebhookUrlAsDeclared({ ctx, p, f, c, row }: GatePartnerTrial): Promise<void> {
  const r = await ctx.call(c, { method: 'POST', path: '/webhooks/test' });
  const without = withoutGateField(p.name, 'noWebhookUrl');
  if (typeof r !== 'string' && r.status === 400)
    row({ name: `${f}: noWebhookUrl`, status: 'ok', detail: 'POST /webhooks/test answered 400 (no webhook_url configured)', without });
  else
    row({
      name: `${f}: noWebhookUrl`,
      status: 'broken',
      detail: `POST /webhooks/test ${line(r)} (expected 400)`,
      without,
      fix: 'noWebhookUrl only for a partner whose account has no webhook_url',
    });
}

/** A session creation body: the profile's defaults (amount, currency, return_url…). */
export function sessionBody(ctx: DoctorContext): Record<string, unknown> {
  const body = { ...(ctx.profile.gate.sessionDefaults ?? {}) } as Record<string, unknown>;
  delete body.$comment;
  return body;
}

/** What a pools partner's state answers on an entitled read of one of its pools. */
const BY_STATE: Record<PoolsPartner['state'], { status: number; code?: string }> = {
  funded: { status: 200 },
  unfunded: { status: 200 },
  kyc_pending: { status: 403, code: 'kyc_not_approved' },
  suspended: { status: 403, code: 'pool_access_suspended' },
  not_enabled: { status: 403, code: 'pools_not_enabled' },
};

async function poolsKeys(ctx: DoctorContext, p: PoolsPartner): Promise<RowDraft[]> {
  const rows: RowDraft[] = [];
  const f = `pools partner ${p.name}`;
  const row = (r: Omit<RowDraft, 'area'>) => rows.push({ area: 'key', ...r });
  if (p.reservedFor === 'load' && !ctx.opts.includeLoadKeys) {
    row({ name: `${f}: keys`, status: 'not checked', detail: 'reserved for load (rampart doctor --include-load-keys presents it)' });
    return rows;
  }
  const pools = ctx.profile.pools!;
  const c = ctx.poolsClient(p);
  // One of its own pools, so a funded partner is never refused for the pool (pool_not_allowed).
  const pool = p.allowedPools?.[0] ?? pools.pools.main;
  const cap = await ctx.call(c, { method: 'GET', path: `/pools/${encodeURIComponent(pool)}/capabilities` });
  const code = typeof cap === 'string' ? undefined : (cap.json as { code?: string } | undefined)?.code;
  const want = BY_STATE[p.state];
  const without = editPoolsPartner(p.name, () => undefined);
  const seen = typeof cap === 'string' ? cap : `capabilities of ${pool} answered ${cap.status}${code ? ` ${code}` : ''}`;
  if (typeof cap !== 'string' && cap.status === want.status && (!want.code || code === want.code))
    row({ name: `${f}: state ${p.state}`, status: 'ok', detail: `${seen}, as ${p.state} does`, without });
  else
    row({
      name: `${f}: state ${p.state}`,
      status: 'broken',
      detail: `${seen} (${p.state} answers ${want.status}${want.code ? ` ${want.code}` : ''})`,
      without,
      fix: 'the key and state the operator provisioned for this partner',
    });
  if (p.publishableKey) {
    const pk = await ctx.call(c, { method: 'GET', path: '/pools', auth: 'publishable' });
    const w = editPoolsPartner(p.name, (g) => ({ ...g, publishableKey: undefined }));
    if (typeof pk !== 'string' && pk.status === 200) row({ name: `${f}: publishableKey`, status: 'ok', detail: 'GET /pools answered 200', without: w });
    else row({ name: `${f}: publishableKey`, status: 'broken', detail: `GET /pools ${line(pk)}`, without: w, fix: 'the pools publishable key (pk_test_…)' });
  }
  return rows;
}
