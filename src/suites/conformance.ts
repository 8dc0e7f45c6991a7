// Conformance: the check files under conformance/, run against the target.
import { EXIT, RunError } from '../exitCodes.js';
import { loadSuites, runChecks, unknownRequirementIds } from '../runner/run.js';
import type { SuiteKind } from './kind.js';

export const conformance: SuiteKind = {
  name: 'conformance',
  async validate(ctx) {
    const unknown = unknownRequirementIds(await loadSuites('conformance', ctx.service));
    if (unknown.length) throw new RunError(`conformance checks name requirement ids missing from the catalogue: ${unknown.join(', ')}`, EXIT.usage);
  },
  async declared(ctx) {
    return (await loadSuites('conformance', ctx.service)).flatMap((s) => s.checks.map((c) => ({ name: c.name, file: s.file, requirements: c.requirements })));
  },
  async run(ctx) {
    const out = await runChecks({
      profile: ctx.profile,
      suites: await loadSuites('conformance', ctx.service),
      kind: 'conformance',
      depth: ctx.depth,
      grep: ctx.grep,
      progress: ctx.progress,
      concurrency: ctx.concurrency,
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
    });
    return {
      checks: out.checks,
      observations: out.observations,
      metrics: {},
      stats: out.stats,
      ...(out.outage ? { outage: out.outage } : {}),
      ...(out.rateLimited ? { rateLimited: out.rateLimited } : {}),
    };
  },
};
