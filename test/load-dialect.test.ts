// The load scenarios in the dialect world (startDialect('everywhere'): every open point the reference's other way —
// among them windows in fixed buckets that count refused requests, 429s without a retry-delay header, Gate answers
// without a Date header) pass with nothing failed: rate-limits, quote-ttl, transact-race and smoke. Once more on a
// profile whose load partners hold no keys of the route probes' own, so the probes share the cases' keys (the
// perClient key carries a request of burst, the keys of burst and replacesFirstOnly their cases' requests) and on
// keys that already sent a request before the scenario (rampart's preflight, traffic from outside the run). The
// target declares its rate windows ×0.1. Skipped visibly without k6.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGates } from '../src/load/gates.js';
import { findK6 } from '../src/load/k6.js';
import { runLoad } from '../src/load/run.js';
import { loadProfile } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import { dialectOf, dialectProfile } from '../src/reference/dialect.js';
import { startReference } from '../src/reference/server.js';
import type { CheckResult } from '../src/report/results.js';

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'rampart-load-dialect-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const gates = { ...loadGates(), quoteTtlDurationSeconds: 6, quoteTtlRate: 2, raceVus: 12, smokeDurationSeconds: 20 };

/** The world of `spec` on the embedded profile, its rate windows ×0.1 (limits unchanged). */
function world(spec: string, tweak: (p: Profile) => Profile = (p) => p): Profile {
  const base = loadProfile('fixtures/profiles/embedded.json');
  return tweak(dialectProfile({ ...base, timing: { ...base.timing, rateWindowScale: 0.1 } }, dialectOf(spec), `dialect ${spec}`));
}

const notPassed = (checks: CheckResult[]) =>
  checks
    .filter((c) => c.status !== 'passed' && !(c.status === 'skipped' && c.reason?.startsWith('runs only at --depth full')))
    .map((c) => `${c.status} ${c.name}: ${c.failure?.message ?? c.reason ?? ''} ${String(c.failure?.actual ?? '').slice(0, 300)}`);

describe.skipIf(!!noK6)(`load scenarios in the dialect world${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  it('rate-limits, quote-ttl, transact-race and smoke: nothing failed, every quick check passed', { timeout: 240_000 }, async () => {
    const ref = await startReference({ profile: world('everywhere'), ephemeralPorts: true });
    try {
      const out = await runLoad({
        profile: ref.profile,
        scenarios: ['rate-limits', 'quote-ttl', 'transact-race', 'smoke'],
        depth: 'quick',
        runDir: tmp(),
        gates,
      });
      expect(notPassed(out.checks)).toEqual([]);
      // Every route of the Limits rows probed and judged, in fixed buckets counting refused requests.
      const routes = out.observations.filter((o) => o.topic === 'GATE-RATE-ROUTE-GROUP').map((o) => o.value as { judged: boolean; ok: boolean });
      expect(routes).toHaveLength(20);
      expect(routes.every((r) => r.judged && r.ok)).toBe(true);
    } finally {
      await ref.close();
    }
  });

  it(
    'rate-limits on keys the cases and the probes share, each of which already sent a request: nothing failed, nothing left unjudged',
    { timeout: 240_000 },
    async () => {
      const shared = (p: Profile): Profile => ({
        ...p,
        gate: { ...p.gate, partners: p.gate.partners.map((x) => (x.reservedFor === 'load' ? { ...x, extraSecretKeys: [] } : x)) },
      });
      const ref = await startReference({ profile: world('everywhere', shared), ephemeralPorts: true });
      try {
        // One request on every load key just before the scenario, as rampart's preflight sends on the profile's first partner.
        for (const p of ref.profile.gate.partners.filter((x) => x.reservedFor === 'load'))
          expect(
            (await fetch(`${ref.profile.gate.baseUrls.sandbox}/capabilities/assets`, { headers: { authorization: `Bearer ${p.secretKey}` } })).status,
          ).toBe(200);
        const out = await runLoad({ profile: ref.profile, scenarios: ['rate-limits'], depth: 'quick', runDir: tmp(), gates });
        expect(out.checks.filter((c) => c.status === 'failed').map((c) => `${c.name}: ${c.failure?.message} ${c.failure?.actual ?? ''}`)).toEqual([]);
        expect(notPassed(out.checks)).toEqual([]);
      } finally {
        await ref.close();
      }
    },
  );
});
