// The pools triggers, each tried as safely as it allows: the pool-state control
// puts the main pool into pool_dry and back for one funded partner (GET /pools
// must follow it), a pay-in credits a cent, the velocity window moves one second
// for a partner that declares velocityClock, and the outcome control is sent for
// a fresh quote that never trades (a trade would spend the balance). Values the
// template maps go out in the sandbox's own words (the shared send does it).
import type { PoolsPartner, RequestTemplate } from '../profile/schema.js';
import { answered, ok2xx, templateOk, type DoctorContext, type RowDraft } from './context.js';
import { withoutPoolsTrigger } from './edits.js';

type Row = Omit<RowDraft, 'area' | 'name' | 'without'>;

const NO_PARTNER = 'no funded pools partner outside the load reservation to act';

/** A funded partner of the main pool, the one the doctor has used least. */
function funded(ctx: DoctorContext, fits: (p: PoolsPartner) => boolean = () => true): PoolsPartner | undefined {
  const main = ctx.profile.pools!.pools.main;
  return ctx.leastUsed(ctx.profile.pools!.partners, (p) => p.state === 'funded' && p.balanceGate && (p.allowedPools ?? [main]).includes(main) && fits(p));
}

/** Whether GET /pools, as `p`, lists the main pool available; a line when it cannot be read. */
async function mainListed(ctx: DoctorContext, p: PoolsPartner): Promise<boolean | string> {
  const ex = await ctx.call(ctx.poolsClient(p), { method: 'GET', path: '/pools' });
  if (typeof ex === 'string') return ex;
  const pool = (ex.json as { pools?: { id?: unknown; available?: unknown }[] } | undefined)?.pools?.find((x) => x.id === ctx.profile.pools!.pools.main);
  return typeof pool?.available === 'boolean' ? pool.available : `GET /pools ${answered(ex)} without the main pool's available`;
}

/** poolState: pool_dry, then available again; GET /pools must show each. */
async function poolState(ctx: DoctorContext, tpl: RequestTemplate): Promise<Row> {
  const p = funded(ctx);
  if (!p) return { status: 'not checked', detail: NO_PARTNER };
  const poolId = ctx.profile.pools!.pools.main;
  const steps: string[] = [];
  for (const [state, want] of [
    ['pool_dry', false],
    ['available', true],
  ] as const) {
    const res = await ctx.send('pools', tpl, p, { poolId, state });
    if (typeof res === 'string' || !templateOk(tpl, res.exchange))
      return {
        status: 'broken',
        detail: `state ${state}: ${typeof res === 'string' ? res : answered(res.exchange)}`,
        fix: 'fix pools.triggers.poolState ({{poolId}}, {{state}}; map the sandbox’s own words under values.state)',
      };
    const listed = await mainListed(ctx, p);
    if (listed !== want)
      return {
        status: 'broken',
        detail: `state ${state} answered ${res.exchange.status}, but GET /pools then read ${typeof listed === 'string' ? listed : `available ${listed}`}`,
      };
    steps.push(`${state}: available ${want}`);
  }
  return { status: 'ok', detail: `set the main pool for ${p.name} and back; GET /pools followed (${steps.join(', ')})` };
}

/** balanceCredit: a cent, and the balance goes up. */
async function balanceCredit(ctx: DoctorContext, tpl: RequestTemplate): Promise<Row> {
  const p = funded(ctx);
  if (!p) return { status: 'not checked', detail: NO_PARTNER };
  const balance = async () => {
    const ex = await ctx.call(ctx.poolsClient(p), { method: 'GET', path: `/pools/${encodeURIComponent(ctx.profile.pools!.pools.main)}/balance` });
    const b = typeof ex === 'string' ? undefined : (ex.json as { balance?: unknown } | undefined)?.balance;
    return typeof b === 'string' ? Number(b) : undefined;
  };
  const before = await balance();
  const res = await ctx.send('pools', tpl, p, { amount: '0.01', currency: 'EUR' });
  if (typeof res === 'string' || !templateOk(tpl, res.exchange))
    return {
      status: 'broken',
      detail: `a pay-in of 0.01 EUR: ${typeof res === 'string' ? res : answered(res.exchange)}`,
      fix: 'fix pools.triggers.balanceCredit ({{amount}}, {{currency}})',
    };
  const after = await balance();
  // A bank may take a fee (the amount credited is not stated): only a balance that did not go up at all is wrong.
  if (before !== undefined && after !== undefined && !(after > before))
    return { status: 'broken', detail: `a pay-in of 0.01 EUR answered ${res.exchange.status}, but the balance went from ${before} to ${after}` };
  return { status: 'ok', detail: `a pay-in of 0.01 EUR for ${p.name} answered ${res.exchange.status}${after !== undefined ? ' and the balance went up' : ''}` };
}

/** velocityAdvance: one second, for a partner that declares its window may be moved. */
async function velocityAdvance(ctx: DoctorContext, tpl: RequestTemplate): Promise<Row> {
  const p = ctx.leastUsed(ctx.profile.pools!.partners, (x) => x.velocityClock === true);
  if (!p) return { status: 'not checked', detail: 'no pools partner declares velocityClock: only such a partner’s window may be moved' };
  const res = await ctx.send('pools', tpl, p, { seconds: '1' });
  if (typeof res === 'string' || !templateOk(tpl, res.exchange))
    return {
      status: 'broken',
      detail: `one second: ${typeof res === 'string' ? res : answered(res.exchange)}`,
      fix: 'fix pools.triggers.velocityAdvance ({{seconds}})',
    };
  return { status: 'ok', detail: `moved ${p.name}'s window one second: answered ${res.exchange.status}` };
}

/** tradeOutcome: sent for a fresh firm quote that never trades; a refusal may only mean the control wants a trade. */
async function tradeOutcome(ctx: DoctorContext, tpl: RequestTemplate): Promise<Row> {
  const p = funded(ctx);
  if (!p) return { status: 'not checked', detail: NO_PARTNER };
  const pools = ctx.profile.pools!;
  const body = { side: 'on_ramp', type: 'firm', ...Object.fromEntries(Object.entries(pools.quote).filter(([k]) => k !== '$comment')) };
  const q = await ctx.call(ctx.poolsClient(p), { method: 'POST', path: `/pools/${encodeURIComponent(pools.pools.main)}/quote`, body });
  const quoteId = typeof q === 'string' || !ok2xx(q) ? undefined : (q.json as { quoteId?: unknown } | undefined)?.quoteId;
  if (typeof quoteId !== 'string') return { status: 'not checked', detail: `no firm quote to try it on: ${typeof q === 'string' ? q : answered(q)}` };
  const res = await ctx.send('pools', tpl, p, { quoteId, outcome: 'settled' });
  if (typeof res === 'string') return { status: 'broken', detail: res, fix: 'fix pools.triggers.tradeOutcome ({{quoteId}}, {{outcome}})' };
  if (!templateOk(tpl, res.exchange))
    return {
      status: 'not checked',
      detail: `on a fresh quote without a trade ${answered(res.exchange)}: it may need a trade, which spends the balance (the doctor makes none)`,
    };
  return { status: 'ok', detail: `on a fresh quote of ${p.name} (no trade made) answered ${res.exchange.status}` };
}

const TRIALS: Record<string, (ctx: DoctorContext, tpl: RequestTemplate) => Promise<Row>> = { poolState, balanceCredit, velocityAdvance, tradeOutcome };

/** A declared pools trigger, tried as TRIALS says; one the doctor does not know how to try is "not checked". */
export async function tryPoolsTrigger(ctx: DoctorContext, name: string, tpl: RequestTemplate): Promise<void> {
  const trial = TRIALS[name];
  const row = trial ? await trial(ctx, tpl) : { status: 'not checked' as const, detail: 'rampart doctor has no safe dry-run for this trigger' };
  ctx.row({ area: 'trigger', name: `pools.triggers.${name}`, ...row, without: withoutPoolsTrigger(name) });
}
