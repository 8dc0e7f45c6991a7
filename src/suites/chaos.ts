// Chaos: the check files under chaos/, run with Toxiproxy between the target
// and rampart. Without Toxiproxy every chaos check is skipped with the reason.
import { installChaos } from '../chaos/kit.js';
import { startToxiproxy, toxiproxyMode } from '../chaos/toxiproxy.js';
import { EXIT, RunError } from '../exitCodes.js';
import { loadSuites, runChecks, unknownRequirementIds } from '../runner/run.js';
import type { SuiteKind } from './kind.js';

export const chaos: SuiteKind = {
  name: 'chaos',
  async validate(ctx) {
    // A bad RAMPART_TOXIPROXY is a usage error before any traffic, not a late surprise.
    try {
      toxiproxyMode();
    } catch (e) {
      throw new RunError((e as Error).message, EXIT.usage);
    }
    const unknown = unknownRequirementIds(await loadSuites('chaos', ctx.service));
    if (unknown.length) throw new RunError(`chaos checks name requirement ids missing from the catalogue: ${unknown.join(', ')}`, EXIT.usage);
  },
  async declared(ctx) {
    return (await loadSuites('chaos', ctx.service)).flatMap((s) => s.checks.map((c) => ({ name: c.name, file: s.file, requirements: c.requirements })));
  },
  async run(ctx) {
    const suites = await loadSuites('chaos', ctx.service);
    const tp = await startToxiproxy(toxiproxyMode());
    if ('missing' in tp) {
      ctx.log(`- chaos skipped: ${tp.missing}`);
      const checks = suites.flatMap((suite) =>
        suite.checks.map((c) => ({
          name: c.name,
          suite: 'chaos' as const,
          file: suite.file,
          requirements: [...c.requirements],
          status: 'skipped' as const,
          reason: `no Toxiproxy: ${tp.missing}`,
          missing: 'toxiproxy',
          durationMs: 0,
        })),
      );
      return { checks, observations: [], metrics: {} };
    }
    ctx.log(`- chaos: Toxiproxy from ${tp.source}`);
    try {
      const out = await runChecks({
        profile: ctx.profile,
        suites,
        kind: 'chaos',
        depth: ctx.depth,
        grep: ctx.grep,
        progress: ctx.progress,
        concurrency: ctx.concurrency ?? 8,
        signal: ctx.signal,
        done: ctx.done,
        onResult: ctx.onResult,
        onExchange: ctx.onExchange,
        reproduce: ctx.reproduce,
        onOutage: ctx.onOutage,
        onRateLimited: ctx.onRateLimited,
        partners: ctx.partners,
        pacer: ctx.pacer,
        clocks: ctx.clocks,
        receiver: ctx.receiver,
        prepare: (run) => installChaos(run, tp),
      });
      // Retry gaps measured by chaos checks feed the report's schedule chart.
      const gaps = out.observations.filter((o) => o.topic === 'retry-gap').map((o) => ({ check: o.check, ...(o.value as object) }));
      return {
        checks: out.checks,
        observations: out.observations,
        metrics: gaps.length ? { retryGaps: gaps } : {},
        stats: out.stats,
        ...(out.outage ? { outage: out.outage } : {}),
        ...(out.rateLimited ? { rateLimited: out.rateLimited } : {}),
      };
    } finally {
      await tp.close();
    }
  },
};
