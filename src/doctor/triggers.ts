// Every trigger the schema knows, declared or not: a declared one is dry-run
// where that is safe (a throwaway session, a quote locked for it, a forced
// 5xx, a pool set dry and back) and must answer as its template says and have
// its effect; one whose dry-run would spend money or that the doctor does not
// know how to try is "not checked"; an absent one is "missing", with what it
// would unlock. Every declared one's row names the needs it unlocks, the values
// it maps to the sandbox's words and the requests that arm it.
// Dry-runs go to the partner whose keys carry the least of the doctor's traffic.
import { NEEDS } from '../needs/registry.js';
import { tryPoolsTrigger } from './poolsTriggers.js';
import { Profile, type GatePartner, type RequestTemplate } from '../profile/schema.js';
import { answered, ok2xx, templateOk, type DoctorContext, type RowDraft } from './context.js';
import { withGateTrigger, withoutGateTrigger, withoutPoolsTrigger, withPoolsTrigger } from './edits.js';
import { sessionBody } from './keys.js';

/** Trigger names of a service, read from the profile schema: a trigger added there gets a row here. */
export function triggerNames(service: 'gate' | 'pools'): string[] {
  const unwrap = (s: any): any => (s?.def?.innerType ? unwrap(s.def.innerType) : s);
  const section = unwrap((Profile as any).shape[service]);
  const triggers = unwrap(section?.shape?.triggers);
  return Object.keys(triggers?.shape ?? {}).filter((k) => k !== '$comment');
}

/** Session triggers: sent on a new session of the acting partner, with the effect read back where the spec shows one. */
const SESSION_TRIGGERS: Record<string, { effect?: 'completed' | 'past expires_at' }> = {
  completeSession: { effect: 'completed' },
  processSession: {},
  failSession: {},
  requireKyc: {},
  expireSession: { effect: 'past expires_at' },
};

/** Partner triggers (no session): sent as a partner, judged by their answer. */
const PARTNER_TRIGGERS = new Set(['quotaWarning', 'quotaExhausted']);

/** Not dry-run, and why. */
const NOT_DRY_RUN: Record<string, string> = {
  'gate.payInBody': 'a body template, sent by the pay-in checks when they redeem a quote (redeeming spends it)',
};

/** configureWebhook rows come from the receiver step (it needs the receiver up). */
const RECEIVER_STEP = new Set(['gate.configureWebhook', 'pools.configureWebhook']);

/** One declared trigger to try: the doctor's context, the template, its row and the profile without it. */
interface Trial {
  ctx: DoctorContext;
  name: string;
  tpl: RequestTemplate;
  row: { area: 'trigger'; name: string };
  without: RowDraft['without'];
}

/** A signed quote the doctor locked, for expireSignedQuote to try on. */
type LockedQuote = { id: string; owner: GatePartner };

const NO_PARTNER = 'no gate partner outside the load reservation to act';

export async function checkTriggers(ctx: DoctorContext): Promise<void> {
  const from = ctx.rows.length;
  await checkGateTriggers(ctx);
  await checkPoolsTriggers(ctx);
  for (const r of ctx.rows.slice(from)) if (r.status !== 'missing') r.detail += declaredForm(ctx, r.name);
}

/** What a declared trigger unlocks (the needs it feeds), the values it maps and the requests that arm it. */
function declaredForm(ctx: DoctorContext, row: string): string {
  const [service, , name] = row.split('.') as ['gate' | 'pools', string, string];
  const tpl = (service === 'gate' ? ctx.profile.gate.triggers : ctx.profile.pools?.triggers) as Record<string, RequestTemplate | undefined> | undefined;
  const t = tpl?.[name];
  if (!t || typeof t.method !== 'string') return '';
  const at = { depth: ctx.depth };
  const less = (service === 'gate' ? withoutGateTrigger(name) : withoutPoolsTrigger(name))(ctx.profile);
  const fed = [...NEEDS].filter(([, def]) => !def.missing(ctx.profile, at) && def.missing(less, at)).map(([n]) => n);
  const parts = [fed.length ? `unlocks ${fed.join(', ')}` : 'unlocks no need on its own (another way stands in)'];
  for (const [v, words] of Object.entries(t.values ?? {}))
    parts.push(
      `{{${v}}} in the sandbox's words: ${Object.entries(words)
        .map(([ours, theirs]) => `${ours}→${theirs}`)
        .join(', ')}`,
    );
  if (t.arm?.length) parts.push(`armed by ${t.arm.map((a) => `${a.method} ${a.path}`).join(', ')} first; the request after is the one judged`);
  return ` — ${parts.join('; ')}`;
}

/** Each Gate trigger: missing, not dry-run (and why), or dry-run as its kind says. */
async function checkGateTriggers(ctx: DoctorContext): Promise<void> {
  const gate = ctx.profile.gate.triggers as Record<string, RequestTemplate | undefined>;
  let locked: LockedQuote | undefined;
  for (const name of triggerNames('gate')) {
    const full = `gate.${name}`;
    if (RECEIVER_STEP.has(full)) continue;
    const tpl = gate[name];
    const row = { area: 'trigger' as const, name: `gate.triggers.${name}` };
    if (!tpl) {
      ctx.row({ ...row, ...missingRow(ctx, 'gate', name) });
      continue;
    }
    const trial: Trial = { ctx, name, tpl, row, without: withoutGateTrigger(name) };
    const session = SESSION_TRIGGERS[name];
    if (NOT_DRY_RUN[full]) ctx.row({ ...row, status: 'not checked', detail: NOT_DRY_RUN[full]!, without: trial.without });
    else if (session) await dryRunOnSession(trial, session);
    else if (name === 'createSignedQuote') locked = await lockSignedQuote(trial);
    else if (name === 'expireSignedQuote') await expireLockedQuote(trial, locked);
    else if (PARTNER_TRIGGERS.has(name)) await dryRunAsPartner(trial);
    else if (name === 'serverError') await dryRunServerError(trial);
    else ctx.row({ ...row, status: 'not checked', detail: 'rampart doctor has no safe dry-run for this trigger', without: trial.without });
  }
}

/** Each pools trigger: missing, or tried as src/doctor/poolsTriggers.ts says. */
async function checkPoolsTriggers(ctx: DoctorContext): Promise<void> {
  const { profile } = ctx;
  for (const name of profile.pools ? triggerNames('pools') : []) {
    if (RECEIVER_STEP.has(`pools.${name}`)) continue;
    const tpl = (profile.pools!.triggers as Record<string, RequestTemplate | undefined>)[name];
    if (!tpl) ctx.row({ area: 'trigger', name: `pools.triggers.${name}`, ...missingRow(ctx, 'pools', name) });
    else await tryPoolsTrigger(ctx, name, tpl);
  }
}

/** A throwaway session of a partner, or why there is none. */
async function newSession(ctx: DoctorContext, p: GatePartner): Promise<{ id: string } | string> {
  const ex = await ctx.call(ctx.gateClient(p), { method: 'POST', path: '/gate_sessions', body: sessionBody(ctx), idempotencyKey: true });
  if (typeof ex === 'string') return ex;
  return ok2xx(ex) && typeof ex.json?.id === 'string' ? { id: ex.json.id } : `creating a session ${answered(ex)} (check gate.sessionDefaults)`;
}

async function readSession(ctx: DoctorContext, p: GatePartner, id: string) {
  const ex = await ctx.call(ctx.gateClient(p), { method: 'GET', path: `/gate_sessions/${encodeURIComponent(id)}` });
  return typeof ex === 'string' ? undefined : (ex.json as { status?: string; expires_at?: string } | undefined);
}

/** A session trigger, sent on a new session: it answers as its template says and has the effect the spec shows. */
async function dryRunOnSession({ ctx, name, tpl, row, without }: Trial, session: { effect?: 'completed' | 'past expires_at' }): Promise<void> {
  const p = ctx.leastUsed(ctx.profile.gate.partners);
  const s = p ? await newSession(ctx, p) : NO_PARTNER;
  if (typeof s === 'string') {
    ctx.row({ ...row, status: 'not checked', detail: s, without });
    return;
  }
  const res = await ctx.send('gate', tpl, p!, { sessionId: s.id });
  let effect = '';
  if (typeof res !== 'string' && templateOk(tpl, res.exchange)) {
    const after = session.effect ? await readSession(ctx, p!, s.id) : undefined;
    if (session.effect === 'completed' && after?.status !== 'completed') effect = `the session read ${after?.status ?? 'nothing'} afterwards, not completed`;
    if (session.effect === 'past expires_at' && !(after?.expires_at && Date.parse(after.expires_at) <= Date.now()))
      effect = `expires_at (${after?.expires_at}) was still ahead afterwards`;
  }
  if (typeof res === 'string' || !templateOk(tpl, res.exchange) || effect)
    ctx.row({
      ...row,
      status: 'broken',
      detail: typeof res === 'string' ? res : effect || `dry-run on a new session ${answered(res.exchange)}`,
      without,
      fix: `fix gate.triggers.${name} ({{sessionId}} is filled in)`,
    });
  else
    ctx.row({
      ...row,
      status: 'ok',
      detail: `dry-run on a new session answered ${res.exchange.status}${session.effect ? ` and the session read ${session.effect}` : ''}`,
      without,
    });
}

/** createSignedQuote, on a new session of a rail-entitled partner where there is one: the quote it locks, if it did. */
async function lockSignedQuote({ ctx, tpl, row, without }: Trial): Promise<LockedQuote | undefined> {
  const partners = ctx.profile.gate.partners;
  const p = ctx.leastUsed(partners, (x) => x.rails === true) ?? ctx.leastUsed(partners);
  const s = p ? await newSession(ctx, p) : NO_PARTNER;
  if (typeof s === 'string') {
    ctx.row({ ...row, status: 'not checked', detail: s, without });
    return undefined;
  }
  const res = await ctx.send('gate', tpl, p!, { sessionId: s.id, side: 'off_ramp' });
  const id = typeof res === 'string' ? undefined : res.values.id;
  if (typeof res === 'string' || !templateOk(tpl, res.exchange) || typeof id !== 'string' || !id) {
    ctx.row({
      ...row,
      status: 'broken',
      detail: typeof res === 'string' ? res : `${answered(res.exchange)}; extract.id found ${JSON.stringify(id)}`,
      without,
      fix: `fix the template and its extract.id / extract.fiat_pay_or_receive${p!.rails === true ? '' : ' (no partner declares rails: true: lock with a rail-entitled one)'}`,
    });
    return undefined;
  }
  ctx.row({ ...row, status: 'ok', detail: `locked a signed quote for a new session of ${p!.name}`, without });
  return { id, owner: p! };
}

/** expireSignedQuote, on the quote createSignedQuote locked. */
async function expireLockedQuote({ ctx, tpl, row, without }: Trial, locked: LockedQuote | undefined): Promise<void> {
  if (!locked) {
    ctx.row({ ...row, status: 'not checked', detail: 'no signed quote to expire (gate.triggers.createSignedQuote is missing or broken)', without });
    return;
  }
  const res = await ctx.send('gate', tpl, locked.owner, { quoteId: locked.id });
  if (typeof res === 'string' || !templateOk(tpl, res.exchange))
    ctx.row({
      ...row,
      status: 'broken',
      detail: typeof res === 'string' ? res : `on a freshly locked quote ${answered(res.exchange)}`,
      without,
      fix: 'fix gate.triggers.expireSignedQuote ({{quoteId}} is filled in)',
    });
  else ctx.row({ ...row, status: 'ok', detail: `on a freshly locked quote answered ${res.exchange.status}`, without });
}

/** A partner trigger, sent once as the least busy partner: it must answer as its template says (the event it fires is the check's to judge). */
async function dryRunAsPartner({ ctx, name, tpl, row, without }: Trial): Promise<void> {
  const p = ctx.leastUsed(ctx.profile.gate.partners);
  const res = p ? await ctx.send('gate', tpl, p, {}) : NO_PARTNER;
  if (typeof res === 'string' || !templateOk(tpl, res.exchange))
    ctx.row({
      ...row,
      status: 'broken',
      detail: typeof res === 'string' ? res : `dry-run ${answered(res.exchange)}`,
      without,
      fix: `fix gate.triggers.${name} ({{partner}} is filled in)`,
    });
  else ctx.row({ ...row, status: 'ok', detail: `dry-run as ${p!.name} answered ${res.exchange.status}`, without });
}

/** serverError: its answer is what the 5xx-scrubbing check judges, so it works when it answers 5xx. */
async function dryRunServerError({ ctx, tpl, row, without }: Trial): Promise<void> {
  const p = ctx.leastUsed(ctx.profile.gate.partners);
  // Never retried: the answer is the one judged (and an armed control fails only the one request after it).
  const res = p ? await ctx.send('gate', tpl, p, {}, { retry: false }) : NO_PARTNER;
  if (typeof res !== 'string' && res.exchange.status >= 500)
    ctx.row({ ...row, status: 'ok', detail: `answered ${res.exchange.status}, a 5xx for the scrubbing check to judge`, without });
  else
    ctx.row({
      ...row,
      status: 'broken',
      detail: typeof res === 'string' ? res : `${answered(res.exchange)} (it must make the target answer a 5xx)`,
      without,
      fix: 'a sandbox control that makes the target answer a 5xx through its normal error path',
    });
}

/** An absent trigger: missing when a need wants it (the first such need says what to add), else nothing is lost. */
export function missingRow(ctx: DoctorContext, service: 'gate' | 'pools', name: string) {
  const withIt = service === 'gate' ? withGateTrigger(name) : withPoolsTrigger(name);
  const gained = [...NEEDS].filter(([, def]) => def.missing(ctx.profile, { depth: ctx.depth }) && !def.missing(withIt(ctx.profile), { depth: ctx.depth }));
  if (gained.length === 0)
    return {
      status: 'ok' as const,
      detail: 'not declared; nothing waits on it (a declared lifetime or another way stands in, or no check uses it)',
      with: withIt,
    };
  return { status: 'missing' as const, detail: 'not declared', with: withIt, fix: gained[0]![1].missing(ctx.profile, { depth: ctx.depth }) ?? undefined };
}
