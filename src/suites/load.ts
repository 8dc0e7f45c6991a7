// Load: the k6 scenarios under scenarios/, run with the pinned k6.
import { EXIT, RunError } from '../exitCodes.js';
import { loadGates } from '../load/gates.js';
import { DEFAULT_SCENARIOS, runLoad, SCENARIO_NAMES } from '../load/run.js';
import { requirementCheckOf } from '../load/verdict.js';
import { SCENARIOS } from '../../scenarios/lib/requirements.js';
import type { SuiteKind } from './kind.js';

export const load: SuiteKind = {
  name: 'load',
  validate(ctx) {
    const unknown = (ctx.scenarios ?? []).filter((n) => !(SCENARIO_NAMES as string[]).includes(n));
    if (unknown.length) throw new RunError(`unknown scenario ${unknown.join(', ')} — choose from ${SCENARIO_NAMES.join(', ')}`, EXIT.usage);
    loadGates(ctx.gatesFile);
  },
  async declared(ctx) {
    // One check per requirement per scenario, as src/load/verdict.ts names them; the cases kept for --depth full too.
    return SCENARIO_NAMES.filter((n) => !ctx.service || SCENARIOS[n].service === ctx.service).flatMap((n) =>
      [...new Set(Object.values(SCENARIOS[n].cases as Record<string, readonly string[]>).flat())].map((id) => requirementCheckOf(n, id)),
    );
  },
  async run(ctx) {
    const { parseSegments, parseSeed } = await import('../load/options.js');
    // An interrupted run stops its k6 processes too.
    const { stopK6Runs } = await import('../load/k6.js');
    ctx.signal.addEventListener('abort', stopK6Runs, { once: true });
    const names = (ctx.scenarios?.length ? ctx.scenarios : DEFAULT_SCENARIOS) as typeof DEFAULT_SCENARIOS;
    const out = await runLoad({
      profile: ctx.profile,
      scenarios: names,
      depth: ctx.depth,
      cases: ctx.cases,
      runDir: ctx.runDir,
      gates: loadGates(ctx.gatesFile),
      log: ctx.log,
      segments: parseSegments(ctx.segments),
      k6Out: ctx.k6Out,
      seed: parseSeed(ctx.seed),
      clocks: ctx.clocks,
      ...(ctx.gateSent ? { gateSent: ctx.gateSent } : {}),
    });
    return { checks: out.checks, observations: out.observations, metrics: out.metrics };
  },
};
