// A Gate route refusing every paced request (src/client/routeRefusal.ts, src/runner/routeRefusals.ts): against the
// embedded target with GET /dashboard/volume answering 429 with an hour's Retry-After to every request, a check
// reading it ends not run (its own rules were not judged), the run gets one failed check naming the Limits rule of
// the route's row (read60: GATE-RATE-ROUTES-READ60), and the key is never held for the announced hour — the run
// neither stops "rate limited by the target" nor ends INCOMPLETE. The rule a route breaks follows its row.
import { describe, expect, it } from 'vitest';
import { check, defineSuite, type CheckTools } from '../src/runner/check.js';
import { createProgress } from '../src/runner/progress.js';
import { rateRequirementOfRoute } from '../src/runner/routeRefusals.js';
import { runChecks } from '../src/runner/run.js';
import { requirementResults, verdictOf } from '../src/report/verdict.js';
import { startEmbedded } from './support/embedded.js';

describe('a route that refuses every request', () => {
  it("names the Limits rule of its row: the row route requirement, or the measured route's own", () => {
    expect(rateRequirementOfRoute('GET', '/dashboard/volume', 'read60')).toBe('GATE-RATE-ROUTES-READ60');
    expect(rateRequirementOfRoute('GET', '/branding', 'read60')).toBe('GATE-RATE-ROUTE-READ60');
    expect(rateRequirementOfRoute('POST', '/gate_sessions', 'write10')).toBe('GATE-RATE-ROUTE-WRITE10');
    expect(rateRequirementOfRoute('POST', '/webhooks/test', 'write10')).toBe('GATE-RATE-ROUTES-WRITE10');
    expect(rateRequirementOfRoute('PATCH', '/branding', 'write30')).toBe('GATE-RATE-ROUTE-WRITE30');
    expect(rateRequirementOfRoute('PATCH', '/customers/c_1', 'write30')).toBe('GATE-RATE-ROUTES-WRITE30');
    expect(rateRequirementOfRoute('GET', '/dashboard/webhook-deliveries', 'default')).toBe('GATE-RATE-ROUTES-DEFAULT');
    expect(rateRequirementOfRoute('GET', '/dashboard/webhook-settings', 'default')).toBe('GATE-RATE-FIRST-WINDOW');
    expect(rateRequirementOfRoute('GET', '/somewhere/unlisted', 'default')).toBe('GATE-RATE-FIRST-WINDOW');
  });

  it('on the embedded target (GET /dashboard/volume always 429, Retry-After 3600): the reading check not run, GATE-RATE-ROUTES-READ60 failed, NOT CERTIFIED', async () => {
    const ref = await startEmbedded({
      faults: ['rate-route-dashboard-volume-always-429'],
      tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.05 } }),
    });
    try {
      const suite = defineSuite({
        service: 'gate',
        section: 'test',
        checks: [
          check({
            name: 'reads the dashboard volume',
            requirements: ['GATE-DASH-SK-ACCESS'],
            needs: ['gatePartner'],
            async run({ gatePartner: actor }, t: CheckTools) {
              const ex = await actor.client.get('/dashboard/volume');
              t.expect.status(ex, 200, 'GATE-DASH-SK-ACCESS');
            },
          }),
          check({
            name: 'reads the branding',
            requirements: ['GATE-BRAND-GET-SHAPE'],
            needs: ['gatePartner'],
            async run({ gatePartner: actor }, t: CheckTools) {
              t.expect.status(await actor.client.get('/branding'), 200, 'GATE-BRAND-GET-SHAPE');
            },
          }),
        ],
      });
      let stopped: string | undefined;
      const started = Date.now();
      const out = await runChecks({
        profile: ref.profile,
        suites: [{ ...suite, file: 'test/route-refusals.ts' }],
        depth: 'quick',
        concurrency: 2,
        progress: createProgress({ live: false, quiet: true }),
        onRateLimited: (m) => (stopped = m),
      });
      expect(stopped).toBeUndefined();
      // A quiet minute window at ×0.05 is 3 s: the proof takes that, never the announced hour.
      expect(Date.now() - started).toBeLessThan(30_000);
      const byName = Object.fromEntries(out.checks.map((c) => [c.name, c]));
      expect(byName['reads the dashboard volume']).toMatchObject({ status: 'not_run' });
      expect(byName['reads the dashboard volume']!.reason).toMatch(/GET \/dashboard\/volume refused every paced request with 429/);
      expect(byName['reads the branding']?.status).toBe('passed');
      const refusal = out.checks.find((c) => c.file === 'src/client/routeRefusal.ts');
      expect(refusal).toMatchObject({
        status: 'failed',
        requirements: ['GATE-RATE-ROUTES-READ60'],
        failure: { kind: 'assertion', requirement: 'GATE-RATE-ROUTES-READ60' },
      });
      // Its evidence: the refusals and the witnesses accepted between them, every secret masked.
      expect(refusal!.failure!.exchanges!.map((e) => e.status)).toEqual([429, 200, 429, 200]);
      expect(JSON.stringify(refusal)).not.toContain(ref.profile.gate.partners[0]!.secretKey);
      const requirements = requirementResults(out.checks, { kinds: ['conformance', 'load'], depth: 'quick', onlyNamed: true });
      expect(requirements.find((q) => q.id === 'GATE-RATE-ROUTES-READ60')?.status).toBe('failed');
      const verdict = verdictOf({ requirements, checks: out.checks, command: 'certify', depth: 'quick' });
      expect(verdict.verdict).toBe('NOT CERTIFIED');
    } finally {
      await ref.close();
    }
  }, 60_000);
});
