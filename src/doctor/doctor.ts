// `rampart doctor`: before a partner spends an hour, check that the profile is
// right about its target — each base URL answers as the API, each key answers
// as its declared kind and mode, each trigger does what it says (dry-run on a
// throwaway session where that is safe), the target reaches rampart's webhook
// receiver — and say, per role or trigger, what it unlocks and what to add.
// Every Gate request is paced like a run's: the doctor never trips a window.
import { randomUUID } from 'node:crypto';
import { createApiClient } from '../client/http.js';
import { clientLimits } from '../client/limits.js';
import { Pacer } from '../client/pacer.js';
import { TransportError, type ApiClient, type Exchange } from '../client/types.js';
import type { NeedName } from '../model/needs.js';
import { sendWith } from '../needs/support/triggers.js';
import { NEEDS } from '../needs/registry.js';
import type { GatePartner, PoolsPartner, Profile, RequestTemplate } from '../profile/schema.js';
import { requirementResults } from '../report/verdict.js';
import type { CheckResult } from '../report/results.js';
import { loadSuites, needsOfCheck } from '../runner/run.js';
import { firstMissing } from '../needs/registry.js';
import { startReceiver } from '../webhooks/receiver.js';
import { viewFor } from '../runner/partition.js';

export type RowStatus = 'ok' | 'missing' | 'broken' | 'not checked';

export interface DoctorRow {
  area: 'base URL' | 'key' | 'trigger' | 'webhooks' | 'need';
  name: string;
  status: RowStatus;
  detail: string;
  /** Checks this role or trigger unlocks. */
  unlocks: number;
  /** What to add or fix, when it is not ok. */
  fix?: string;
}

export interface DoctorReport {
  profile: string;
  rows: DoctorRow[];
  usable: boolean;
  /** Requirements this profile can verify (every check naming them can run) out of the catalogue in scope. */
  verifiable: { requirements: number; of: number };
}

/** Which needs a profile element feeds: a broken element breaks the checks of those needs. */
const TRIGGER_NEEDS: Record<string, NeedName[]> = {
  completeSession: ['gateCompleteSession'],
  processSession: ['gateProcessSession'],
  failSession: ['gateFailSession'],
  expireSession: ['gateExpireSession'],
  createSignedQuote: ['gateSignedQuote'],
  expireSignedQuote: ['gateExpireSignedQuote'],
  configureWebhook: ['gateWebhooks', 'gateWebhooksExclusive', 'gateWebhooksKycTrusted', 'gateWebhooksEmbed', 'poolsWebhooks', 'poolsWebhooksExclusive'],
  tradeOutcome: ['poolsTradeOutcome'],
};

const ok2xx = (ex: Exchange) => ex.status >= 200 && ex.status < 300;

export async function runDoctor(profile: Profile, opts: { depth?: 'quick' | 'full'; receiverWaitMs?: number; log?: (l: string) => void } = {}): Promise<DoctorReport> {
  const depth = opts.depth ?? 'quick';
  const pacer = new Pacer({ windowScale: profile.timing.rateWindowScale });
  const limits = clientLimits(profile.harness);
  const rows: DoctorRow[] = [];
  const client = (service: 'gate' | 'pools', baseUrl: string, label: string, secretKey?: string, publishableKey?: string): ApiClient =>
    createApiClient({ service, baseUrl, label: `doctor ${label}`, secretKey, publishableKey, pacer: service === 'gate' ? pacer : undefined, ...limits, retry: { maxRetries: 1, baseDelayMs: 300, maxDelayMs: 1_000 } });

  // Checks each need unlocks: the table says what fixing a row buys.
  const checks: { needs: NeedName[]; requirements: readonly string[]; name: string; file: string; kind: 'conformance' | 'chaos' }[] = [];
  for (const kind of ['conformance', 'chaos'] as const)
    for (const s of await loadSuites(kind)) for (const c of s.checks) checks.push({ needs: needsOfCheck(c), requirements: c.requirements, name: c.name, file: s.file, kind });
  const unlocks = (needs: readonly string[]) => checks.filter((c) => c.needs.some((n) => needs.includes(n))).length;

  const call = async (c: ApiClient, what: string, req: Parameters<ApiClient['request']>[0]): Promise<Exchange | string> => {
    try {
      return await c.request({ retry: false, ...req });
    } catch (e) {
      if (e instanceof TransportError) return e.message;
      return `${what}: ${(e as Error).message}`;
    }
  };
  const row = (r: DoctorRow) => {
    rows.push(r);
    opts.log?.(`${r.status === 'ok' ? '✓' : r.status === 'missing' ? '-' : r.status === 'broken' ? '✗' : '·'} ${r.area}: ${r.name} — ${r.detail}`);
  };

  // 1. Base URLs answer as the API.
  const bases: { service: 'gate' | 'pools'; which: 'sandbox' | 'production'; url?: string; key?: string; path: string; shape: (j: any) => boolean }[] = [
    { service: 'gate', which: 'sandbox', url: profile.gate.baseUrls.sandbox, key: profile.gate.partners[0]?.secretKey, path: '/capabilities/assets', shape: (j) => j?.object === 'list' && Array.isArray(j.data) },
    { service: 'gate', which: 'production', url: profile.gate.baseUrls.production, key: undefined, path: '/capabilities/assets', shape: (j) => typeof j?.type === 'string' },
    ...(profile.pools
      ? [
          { service: 'pools' as const, which: 'sandbox' as const, url: profile.pools.baseUrls.sandbox, key: profile.pools.partners[0]?.secretKey, path: '/pools', shape: (j: any) => Array.isArray(j?.pools) },
          { service: 'pools' as const, which: 'production' as const, url: profile.pools.baseUrls.production, key: undefined, path: '/pools', shape: (j: any) => typeof j?.type === 'string' },
        ]
      : []),
  ];
  for (const b of bases) {
    const name = `${b.service}.baseUrls.${b.which}`;
    if (!b.url) {
      row({ area: 'base URL', name, status: 'missing', detail: 'not declared', unlocks: unlocks([`${b.service}Production`]), fix: `add ${name} (a test key presented there must be refused)` });
      continue;
    }
    // Production without a key: an unauthenticated read must answer with the error envelope (401), proving the API is there.
    const ex = await call(client(b.service, b.url, name, b.key), name, { method: 'GET', path: b.path, auth: b.key ? 'secret' : 'none' });
    if (typeof ex === 'string') row({ area: 'base URL', name, status: 'broken', detail: ex, unlocks: 0, fix: `check ${name} and that the target is up` });
    else if (b.shape(ex.json) && (b.key ? ex.status === 200 : ex.status === 401))
      row({ area: 'base URL', name, status: 'ok', detail: `GET ${b.path} answered ${ex.status} as the API does`, unlocks: 0 });
    else row({ area: 'base URL', name, status: 'broken', detail: `GET ${b.path} answered ${ex.status} ${ex.bodyText.slice(0, 120)}`, unlocks: 0, fix: `${name} must be the API's base (it ends in /v1)` });
  }

  // 2. Keys answer as their declared kind and mode.
  const gateSandbox = profile.gate.baseUrls.sandbox;
  for (const p of profile.gate.partners) await gateKeys(p);
  for (const p of profile.pools?.partners ?? []) await poolsKeys(p);

  async function gateKeys(p: GatePartner): Promise<void> {
    const c = client('gate', gateSandbox, p.name, p.secretKey, p.publishableKey);
    const sk = await call(c, 'secretKey', { method: 'GET', path: '/capabilities/assets' });
    const f = `gate partner ${p.name}`;
    if (typeof sk === 'string' || sk.status !== 200)
      row({ area: 'key', name: `${f}: secretKey`, status: 'broken', detail: typeof sk === 'string' ? sk : `answered ${sk.status} on the sandbox`, unlocks: unlocks(['gatePartner']), fix: 'the test secret key of this partner (sk_test_…)' });
    else row({ area: 'key', name: `${f}: secretKey`, status: 'ok', detail: 'answers 200 on the sandbox', unlocks: 0 });
    if (p.publishableKey && p.allowedOrigins?.length) {
      const boot = await call(c, 'publishableKey', { method: 'POST', path: '/embed/bootstrap', body: {}, auth: 'publishable', headers: { origin: p.allowedOrigins[0]! } });
      if (typeof boot === 'string' || !ok2xx(boot))
        row({ area: 'key', name: `${f}: publishableKey`, status: 'broken', detail: typeof boot === 'string' ? boot : `bootstrap from ${p.allowedOrigins[0]} answered ${boot.status}`, unlocks: unlocks(['gateEmbed']), fix: 'the publishable key (pk_test_…) and the exact allowed origins of this partner' });
      else row({ area: 'key', name: `${f}: publishableKey`, status: 'ok', detail: `bootstraps from ${p.allowedOrigins[0]}`, unlocks: 0 });
    }
    if (p.revokedSecretKey) {
      const r = await call(c, 'revokedSecretKey', { method: 'GET', path: '/capabilities/assets', auth: { bearer: p.revokedSecretKey } });
      if (typeof r === 'string' || r.status !== 403)
        row({ area: 'key', name: `${f}: revokedSecretKey`, status: 'broken', detail: typeof r === 'string' ? r : `answered ${r.status} (a revoked key gives 403)`, unlocks: unlocks(['gateRevokedKey']), fix: 'a key of this partner that the target has revoked' });
      else row({ area: 'key', name: `${f}: revokedSecretKey`, status: 'ok', detail: 'refused with 403', unlocks: 0 });
    }
    if (p.liveSecretKey) {
      const onSandbox = await call(c, 'liveSecretKey', { method: 'GET', path: '/capabilities/assets', auth: { bearer: p.liveSecretKey } });
      if (typeof onSandbox === 'string' || onSandbox.status !== 403)
        row({ area: 'key', name: `${f}: liveSecretKey`, status: 'broken', detail: typeof onSandbox === 'string' ? onSandbox : `the sandbox answered ${onSandbox.status} (a live key gives 403 there)`, unlocks: unlocks(['gateLiveKey']), fix: 'a live secret key (sk_live_…) of this partner' });
      else row({ area: 'key', name: `${f}: liveSecretKey`, status: 'ok', detail: 'refused on the sandbox with 403 (mode mismatch)', unlocks: 0 });
    }
    if (p.rails !== undefined) {
      // A rail read of an id no one has: 404 means entitled (the route is open to it), 403 means not.
      const r = await call(c, 'rails', { method: 'GET', path: `/rails/pay_outs/rampart-doctor-${randomUUID()}` });
      const entitled = typeof r !== 'string' && r.status === 404;
      const refused = typeof r !== 'string' && r.status === 403;
      if (typeof r === 'string' || (p.rails && !entitled) || (!p.rails && !refused))
        row({ area: 'key', name: `${f}: rails ${p.rails}`, status: 'broken', detail: typeof r === 'string' ? r : `a rail read answered ${r.status}`, unlocks: unlocks([p.rails ? 'gateRails' : 'gateNoRails']), fix: `rails: ${!p.rails} (what the target says about this partner)` });
      else row({ area: 'key', name: `${f}: rails ${p.rails}`, status: 'ok', detail: p.rails ? 'rail routes open (404 for an unknown id)' : 'rail routes refused (403)', unlocks: 0 });
    }
  }

  async function poolsKeys(p: PoolsPartner): Promise<void> {
    const pools = profile.pools!;
    const c = client('pools', pools.baseUrls.sandbox, p.name, p.secretKey, p.publishableKey);
    const f = `pools partner ${p.name}`;
    const cap = await call(c, 'state', { method: 'GET', path: `/pools/${encodeURIComponent(pools.pools.main)}/capabilities` });
    const code = typeof cap === 'string' ? undefined : (cap.json as { code?: string } | undefined)?.code;
    const expected: Record<string, [number, string?]> = {
      funded: [200],
      unfunded: [200],
      kyc_pending: [403, 'kyc_not_approved'],
      suspended: [403, 'pool_access_suspended'],
      not_enabled: [403, 'pools_not_enabled'],
    };
    const [st, c403] = expected[p.state]!;
    if (typeof cap === 'string' || cap.status !== st || (c403 && code !== c403))
      row({ area: 'key', name: `${f}: state ${p.state}`, status: 'broken', detail: typeof cap === 'string' ? cap : `capabilities of ${pools.pools.main} answered ${cap.status}${code ? ` ${code}` : ''}`, unlocks: unlocks([`pools${p.state === 'funded' ? 'Partner' : ''}`]), fix: 'the key and state the operator provisioned for this partner' });
    else row({ area: 'key', name: `${f}: state ${p.state}`, status: 'ok', detail: `capabilities answered ${cap.status}${code ? ` ${code}` : ''} as ${p.state} does`, unlocks: 0 });
    if (p.publishableKey) {
      const pk = await call(c, 'publishableKey', { method: 'GET', path: '/pools', auth: 'publishable' });
      if (typeof pk === 'string' || pk.status !== 200)
        row({ area: 'key', name: `${f}: publishableKey`, status: 'broken', detail: typeof pk === 'string' ? pk : `GET /pools answered ${pk.status}`, unlocks: unlocks(['poolsPublishable']), fix: 'the pools publishable key (pk_test_…)' });
      else row({ area: 'key', name: `${f}: publishableKey`, status: 'ok', detail: 'GET /pools answered 200', unlocks: 0 });
    }
  }

  // 3. Triggers, dry-run on throwaway objects where that is safe; 4. the receiver reached from the target.
  const gp = profile.gate.partners.find((p) => !p.reservedFor) ?? profile.gate.partners[0]!;
  const gc = client('gate', gateSandbox, gp.name, gp.secretKey, gp.publishableKey);
  const newSession = async (): Promise<{ id: string; expires_at?: string } | string> => {
    const body = { ...(profile.gate.sessionDefaults ?? {}) } as Record<string, unknown>;
    delete body.$comment;
    const ex = await call(gc, 'session', { method: 'POST', path: '/gate_sessions', body, idempotencyKey: true });
    if (typeof ex === 'string') return ex;
    return ok2xx(ex) && typeof ex.json?.id === 'string' ? ex.json : `creating a session answered ${ex.status} (check gate.sessionDefaults)`;
  };
  const readSession = async (id: string) => {
    const ex = await call(gc, 'session', { method: 'GET', path: `/gate_sessions/${encodeURIComponent(id)}` });
    return typeof ex === 'string' ? undefined : (ex.json as { status?: string; expires_at?: string } | undefined);
  };
  const triggers = profile.gate.triggers as Record<string, RequestTemplate | undefined>;
  const trig = async (name: string, tpl: RequestTemplate, vars: Record<string, string>, c: ApiClient = gc) => {
    try {
      return await sendWith(c, tpl, { partner: gp.name, ...vars });
    } catch (e) {
      return e instanceof TransportError ? e.message : (e as Error).message;
    }
  };
  for (const [name, outcome] of [
    ['completeSession', 'completed'],
    ['processSession', undefined],
    ['failSession', undefined],
    ['expireSession', 'past expires_at'],
  ] as const) {
    const tpl = triggers[name];
    const needs = TRIGGER_NEEDS[name]!;
    if (!tpl) {
      const why = NEEDS.get(needs[0]!)?.missing(profile, { depth });
      row({ area: 'trigger', name: `gate.triggers.${name}`, status: why ? 'missing' : 'ok', detail: why ? 'not declared' : 'not declared; a declared lifetime stands in', unlocks: unlocks(needs), ...(why ? { fix: why } : {}) });
      continue;
    }
    const s = await newSession();
    if (typeof s === 'string') {
      row({ area: 'trigger', name: `gate.triggers.${name}`, status: 'not checked', detail: s, unlocks: unlocks(needs) });
      continue;
    }
    const res = await trig(name, tpl, { sessionId: s.id });
    const good = typeof res !== 'string' && (tpl.expectStatus ? tpl.expectStatus.includes(res.exchange.status) : ok2xx(res.exchange));
    let effect = '';
    if (good && outcome === 'completed') effect = (await readSession(s.id))?.status === 'completed' ? '' : 'the session did not read completed afterwards';
    if (good && outcome === 'past expires_at') {
      const after = await readSession(s.id);
      effect = after?.expires_at && Date.parse(after.expires_at) <= Date.now() ? '' : 'expires_at was still ahead afterwards';
    }
    if (!good || effect)
      row({ area: 'trigger', name: `gate.triggers.${name}`, status: 'broken', detail: typeof res === 'string' ? res : effect || `answered ${res.exchange.status} ${res.exchange.bodyText.slice(0, 120)}`, unlocks: unlocks(needs), fix: `fix gate.triggers.${name} ({{sessionId}} is filled in)` });
    else row({ area: 'trigger', name: `gate.triggers.${name}`, status: 'ok', detail: `dry-run on a new session answered ${(res as { exchange: Exchange }).exchange.status}${outcome ? ` and the session read ${outcome}` : ''}`, unlocks: unlocks(needs) });
  }
  if (triggers.createSignedQuote) {
    const rp = profile.gate.partners.find((p) => p.rails === true) ?? gp;
    const rc = client('gate', gateSandbox, rp.name, rp.secretKey);
    const s = await newSession();
    const res = typeof s === 'string' ? s : await trig('createSignedQuote', triggers.createSignedQuote, { sessionId: s.id, side: 'off_ramp' }, rc);
    const id = typeof res === 'string' ? undefined : res.values.id;
    if (typeof res === 'string' || !ok2xx(res.exchange) || typeof id !== 'string')
      row({ area: 'trigger', name: 'gate.triggers.createSignedQuote', status: 'broken', detail: typeof res === 'string' ? res : `answered ${res.exchange.status}; extract.id found ${JSON.stringify(id)}`, unlocks: unlocks(['gateSignedQuote']), fix: 'fix the template and its extract.id / extract.fiat_pay_or_receive' });
    else row({ area: 'trigger', name: 'gate.triggers.createSignedQuote', status: 'ok', detail: `locked quote ${id} for a new session`, unlocks: unlocks(['gateSignedQuote']) });
  } else row({ area: 'trigger', name: 'gate.triggers.createSignedQuote', status: 'missing', detail: 'not declared', unlocks: unlocks(['gateSignedQuote']), fix: NEEDS.get('gateSignedQuote')?.missing(profile, { depth }) ?? undefined });
  if (profile.pools?.triggers.tradeOutcome)
    row({ area: 'trigger', name: 'pools.triggers.tradeOutcome', status: 'not checked', detail: 'not dry-run: it needs a trade, which spends the partner balance', unlocks: unlocks(['poolsTradeOutcome']) });
  else if (profile.pools) row({ area: 'trigger', name: 'pools.triggers.tradeOutcome', status: 'missing', detail: 'not declared', unlocks: unlocks(['poolsTradeOutcome']), fix: 'pools.triggers.tradeOutcome (choose the outcome the next poll discovers)' });

  // The target reaches the receiver: point a partner's webhooks at it and ask for a test event.
  const wp = profile.gate.partners.find((p) => !p.reservedFor && p.webhookSecret);
  const wtpl = profile.gate.triggers.configureWebhook;
  if (!wp || !wtpl) {
    row({ area: 'webhooks', name: 'receiver reachable from the target', status: 'missing', detail: !wtpl ? 'gate.triggers.configureWebhook is missing' : 'no gate partner has webhookSecret', unlocks: unlocks(TRIGGER_NEEDS.configureWebhook!), fix: !wtpl ? 'gate.triggers.configureWebhook' : 'webhookSecret on a gate partner' });
  } else {
    const receiver = await startReceiver({ host: profile.webhooks.listenHost, port: profile.webhooks.listenPort, publicUrl: profile.webhooks.publicUrl });
    try {
      const channel = `gate:${wp.name}`;
      receiver.setSecrets(channel, [wp.webhookSecret!]);
      const wc = client('gate', gateSandbox, wp.name, wp.secretKey);
      const conf = await trig('configureWebhook', wtpl, { webhookUrl: receiver.urlFor(channel), partner: wp.name }, wc);
      if (typeof conf === 'string' || !(wtpl.expectStatus ? wtpl.expectStatus.includes(conf.exchange.status) : ok2xx(conf.exchange))) {
        row({ area: 'trigger', name: 'gate.triggers.configureWebhook', status: 'broken', detail: typeof conf === 'string' ? conf : `answered ${conf.exchange.status}`, unlocks: unlocks(TRIGGER_NEEDS.configureWebhook!), fix: 'fix gate.triggers.configureWebhook ({{webhookUrl}} is filled in)' });
      } else {
        row({ area: 'trigger', name: 'gate.triggers.configureWebhook', status: 'ok', detail: `pointed ${wp.name}'s webhooks at ${receiver.urlFor(channel)}`, unlocks: unlocks(TRIGGER_NEEDS.configureWebhook!) });
        const test = await call(wc, 'webhooks/test', { method: 'POST', path: '/webhooks/test' });
        const eventId = typeof test === 'string' ? undefined : (test.json as { event_id?: string } | undefined)?.event_id;
        let got: { verification: { ok: boolean; reason?: string } } | undefined;
        try {
          got = await receiver.waitFor(channel, (e) => !eventId || e.eventId === eventId, opts.receiverWaitMs ?? 30_000);
        } catch {
          got = undefined;
        }
        if (!got)
          row({ area: 'webhooks', name: 'receiver reachable from the target', status: 'broken', detail: `no webhook.test delivery reached ${receiver.urlFor(channel)} within ${Math.round((opts.receiverWaitMs ?? 30_000) / 1000)} s`, unlocks: unlocks(TRIGGER_NEEDS.configureWebhook!), fix: 'webhooks.publicUrl must be an address the target can reach (a tunnel, or the runner\'s address)' });
        else if (!got.verification.ok)
          row({ area: 'webhooks', name: `${wp.name}: webhookSecret`, status: 'broken', detail: `a delivery arrived but its Gate-Signature does not verify: ${got.verification.reason}`, unlocks: unlocks(['gateWebhooks']), fix: `the whsec_ secret the target signs ${wp.name}'s events with` });
        else row({ area: 'webhooks', name: 'receiver reachable from the target', status: 'ok', detail: `a signed webhook.test delivery arrived and verified with ${wp.name}'s secret`, unlocks: unlocks(TRIGGER_NEEDS.configureWebhook!) });
      }
    } finally {
      await receiver.close();
    }
  }

  // 5. Every need: present or what to add, with the checks it unlocks.
  for (const [name, def] of [...NEEDS].sort(([a], [b]) => a.localeCompare(b))) {
    const why = def.missing(viewFor(profile, 'conformance'), { depth });
    const n = unlocks([name]);
    row({ area: 'need', name, status: why ? 'missing' : 'ok', detail: why ?? def.description, unlocks: n, ...(why ? { fix: why } : {}) });
  }

  // How complete the certificate can be: requirements whose every check can run.
  const results: CheckResult[] = checks.map((c) => {
    const miss = firstMissing(viewFor(profile, c.kind), c.needs, depth);
    return { name: c.name, suite: c.kind, file: c.file, requirements: c.requirements, status: miss ? 'skipped' : 'passed', durationMs: 0 };
  });
  const reqs = requirementResults(results, { kinds: ['conformance', 'chaos'], depth });
  const inScope = reqs.filter((r) => r.status !== 'out_of_scope');
  return {
    profile: profile.name,
    rows,
    usable: !rows.some((r) => r.status === 'broken'),
    verifiable: { requirements: inScope.filter((r) => r.status === 'passed').length, of: inScope.length },
  };
}

/** The table as text: one row per role or trigger. */
export function formatDoctor(d: DoctorReport): string {
  const icon: Record<RowStatus, string> = { ok: '✓', missing: '-', broken: '✗', 'not checked': '·' };
  const lines = [`rampart doctor — profile ${d.profile}`, ''];
  const w = Math.min(60, Math.max(...d.rows.map((r) => r.name.length)));
  for (const area of ['base URL', 'key', 'trigger', 'webhooks', 'need'] as const) {
    const rs = d.rows.filter((r) => r.area === area);
    if (!rs.length) continue;
    lines.push(`${area === 'need' ? 'needs' : `${area}s`}:`);
    for (const r of rs) {
      const unl = r.unlocks ? ` [unlocks ${r.unlocks} check${r.unlocks === 1 ? '' : 's'}]` : '';
      lines.push(`  ${icon[r.status]} ${r.name.padEnd(w)}  ${r.status.padEnd(11)} ${r.detail}${unl}${r.fix && r.status !== 'ok' ? `\n      → ${r.fix}` : ''}`);
    }
  }
  const broken = d.rows.filter((r) => r.status === 'broken').length;
  lines.push('', `${d.usable ? 'usable' : `NOT usable: ${broken} row${broken === 1 ? '' : 's'} broken`} — this profile can verify ${d.verifiable.requirements} of ${d.verifiable.of} requirements (conformance and chaos) at this depth`);
  return lines.join('\n');
}
