// N VUs transact one firm quote at the same moment, each with its own
// Idempotency-Key: exactly one trade exists afterwards and the balance is
// debited once — by what one trade of that quote body draws, measured on a twin
// transacted alone in setup (the spec states that a trade draws on the balance,
// not how much: a draw fee may ride on the trade amount). Each answer is a trade with that quote (endpoint rule 3:
// idempotent on quoteId) or 409 (the quote state table): both readings pass.
// Split into execution segments, each instance races its own quote with its
// own key, so one instance's trade never moves another's balance.
import exec from 'k6/execution';
import { checkReq } from './lib/checks.ts';
import { loadConfig, requirementThresholds, summaryFiles, wants } from './lib/config.ts';
import { emit } from './lib/emit.ts';
import { guarded } from './lib/guard.ts';
import { call, json } from './lib/http.ts';
import { SCENARIOS } from './lib/requirements.ts';
import { segmentKeys } from './lib/segment.ts';

const cfg = loadConfig();
const pools = cfg.pools!;
const R = SCENARIOS['transact-race'].cases;
const N = cfg.gates.raceVus ?? 16;

export const options = {
  scenarios: wants(cfg, 'race') ? { race: { executor: 'per-vu-iterations', vus: N, iterations: 1, maxDuration: '30s' } } : {},
  thresholds: requirementThresholds(cfg),
  setupTimeout: '30s',
  teardownTimeout: '30s',
};

const base = pools.baseUrl.replace(/\/$/, '');
const pool = encodeURIComponent(pools.pool);
const cents = (d: string | null | undefined) => (typeof d === 'string' ? Math.round(Number(d) * 100) : NaN);

interface RaceSetup {
  key: string;
  quoteId: string;
  balanceBefore: number;
  /** What one trade of the quote body draws from the balance (cents), measured on the twin. */
  oneDrawCents: number;
  startAt: number;
}

const balanceCents = (key: string) => cents(json(call('GET', `${base}/pools/${pool}/balance`, key, { tags: { name: 'GET /pools/{id}/balance' } }))?.balance);
const firmQuote = (key: string) =>
  json(call('POST', `${base}/pools/${pool}/quote`, key, { body: { ...pools.quote, type: 'firm' }, tags: { name: 'POST /pools/{id}/quote' } }));

export const setup = guarded('race setup', (): RaceSetup | undefined => {
  const key = segmentKeys(pools.keys)[0]!;
  // The twin: the same quote body transacted once, alone, so "debited once" is judged against the target's own draw.
  const start = balanceCents(key);
  const twin = firmQuote(key);
  if (twin?.quoteId)
    call('POST', `${base}/pools/${pool}/transact`, key, { body: { quoteId: twin.quoteId }, idempotencyKey: true, tags: { name: 'POST /pools/{id}/transact' } });
  const balanceBefore = balanceCents(key);
  const q = firmQuote(key);
  if (!twin?.quoteId || !q?.quoteId) {
    checkReq(R.race[0], q, 'a firm quote to race on', () => false);
    return undefined;
  }
  // Every VU fires at the same instant, 1 s after setup.
  return { key, quoteId: q.quoteId, balanceBefore, oneDrawCents: start - balanceBefore, startAt: Date.now() + 1_000 };
});

export default guarded('race', (s: RaceSetup | undefined): void => {
  if (!s) return;
  const wait = s.startAt - Date.now();
  if (wait > 0) {
    const until = Date.now() + wait;
    while (Date.now() < until) {
      /* spin briefly so every VU starts within a few ms */
    }
  }
  const r = call('POST', `${base}/pools/${pool}/transact`, s.key, {
    body: { quoteId: s.quoteId },
    idempotencyKey: true,
    tags: { name: 'POST /pools/{id}/transact' },
  });
  const b = json(r);
  emit({ kind: 'race', vu: exec.vu.idInTest, status: r.status, transactId: b?.transactId ?? null });
  checkReq(
    R.race[0],
    r,
    'each racer gets the trade of this quote or 409',
    (x) => (x.status >= 200 && x.status < 300 && b?.quoteId === s.quoteId && typeof b?.transactId === 'string') || x.status === 409,
    (x) => ({ status: x.status }),
  );
});

export const teardown = guarded('race teardown', (s: RaceSetup | undefined): void => {
  if (!s) return;
  const page = json(call('GET', `${base}/pools/trades`, s.key, { tags: { name: 'GET /pools/trades' } }));
  const mine = (page?.data ?? []).filter((t: { quoteId?: string }) => t.quoteId === s.quoteId);
  checkReq(
    R.race[0],
    mine,
    'exactly one trade exists for the raced quote',
    (m) => m.length === 1,
    (m) => ({ trades: m.length }),
  );
  const debited = s.balanceBefore - balanceCents(s.key);
  const fiat = cents(mine[0]?.fiatAmount);
  emit({ kind: 'raceBalance', debitedCents: debited, tradeFiatCents: fiat, oneDrawCents: s.oneDrawCents });
  checkReq(
    R.race[1],
    debited,
    'the balance is drawn on once: by what one trade of the quote draws (its twin, transacted alone)',
    (d) => Number.isFinite(d) && s.oneDrawCents > 0 && d === s.oneDrawCents,
    (d) => ({ debitedCents: d, oneDrawCents: s.oneDrawCents, tradeFiatCents: fiat }),
  );
});

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
