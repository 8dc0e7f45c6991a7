// An exploration over lanes: one per partner the explore role allows (budget.ts), all at once, each with its own
// sides, context, budget and schedule; the lanes of a service share their small interactions (each taken by one
// lane) and the run's coverage, so N lanes walk them N at a time. The first lane to part halts the others (they start
// no new sequence), shrinks and re-runs its divergence; the outcomes add up to the exploration's.
import { explore, type ExploreOptions, type ExploreOutcome } from './explore.js';
import { FAMILIES } from './commands/index.js';
import { PairQueue } from './pairs.js';
import { VariantCoverage } from './schedule.js';
import type { Capabilities, Side } from './model.js';
import type { ExploreContext, SideClients } from './real.js';
import type { LanePlan } from './budget.js';

export interface Lane {
  plan: LanePlan;
  sides: Record<Side, SideClients>;
  can: Capabilities;
  context: ExploreContext;
  budget: number;
}

export interface LanesOutcome extends ExploreOutcome {
  /** Per lane: its partner, service and keys, its budget and what it spent. */
  lanes: { name: string; service: 'gate' | 'pools'; keys: number; budget: number; spent: number; sequences: number }[];
}

type Shared = Omit<ExploreOptions, 'sides' | 'can' | 'context' | 'budget' | 'halt' | 'shared'>;

export async function exploreLanes(lanes: readonly Lane[], opts: Shared): Promise<LanesOutcome> {
  const halt = { found: false };
  const shared = new Map<string, NonNullable<ExploreOptions['shared']>>();
  for (const service of ['gate', 'pools'] as const) {
    const families = FAMILIES.filter((f) => f.service === service);
    shared.set(service, { pairs: new PairQueue(families, opts.seed), coverage: new VariantCoverage() });
  }
  // Each lane its own seed (lane 0 the run's, so a run of one lane replays as it always did).
  const order: number[] = [];
  const outs = await Promise.all(
    lanes.map(async (l, i) => {
      const out = await explore({
        ...opts,
        sides: l.sides,
        can: { ...l.can, services: [l.plan.service] },
        context: l.context,
        budget: l.budget,
        seed: (opts.seed + i * 7_919_993) | 0,
        halt,
        shared: shared.get(l.plan.service)!,
      });
      if (out.finding || out.intermittent || out.crash) order.push(i);
      return out;
    }),
  );
  return merge(lanes, outs, order[0], opts.seed);
}

function merge(lanes: readonly Lane[], outs: ExploreOutcome[], first: number | undefined, seed: number): LanesOutcome {
  const sum = (f: (o: ExploreOutcome) => number) => outs.reduce((a, o) => a + f(o), 0);
  const families: ExploreOutcome['families'] = {};
  for (const o of outs)
    for (const [name, f] of Object.entries(o.families)) {
      const m = families[name];
      if (!m) families[name] = { ...f, pairs: { ...f.pairs } };
      else {
        m.sequences += f.sequences;
        m.steps += f.steps;
        m.requests += f.requests;
        m.pairs = {
          total: Math.max(m.pairs.total, f.pairs.total),
          tried: m.pairs.tried + f.pairs.tried,
          walked: m.pairs.walked + f.pairs.walked,
          views: m.pairs.views + f.pairs.views,
        };
        // Left out only where no lane could act on it.
        if (!f.leftOut) delete m.leftOut;
      }
    }
  const found = first !== undefined ? outs[first]! : undefined;
  const stopped = outs.find((o) => o.stopped)?.stopped;
  return {
    seed,
    budget: sum((o) => o.budget),
    spent: sum((o) => o.spent),
    sequences: sum((o) => o.sequences),
    steps: sum((o) => o.steps),
    families,
    ...(found?.finding ? { finding: found.finding } : {}),
    ...(found?.intermittent ? { intermittent: found.intermittent } : {}),
    ...(found?.crash ? { crash: found.crash } : {}),
    ...(found?.foundAfter !== undefined ? { foundAfter: found.foundAfter } : {}),
    transitions: sum((o) => o.transitions),
    judged: [...new Set(outs.flatMap((o) => o.judged))].sort(),
    ...(stopped ? { stopped } : {}),
    observations: outs.flatMap((o) => o.observations),
    lanes: lanes.map((l, i) => ({
      name: l.plan.name,
      service: l.plan.service,
      keys: l.plan.keys,
      budget: l.budget,
      spent: outs[i]!.spent,
      sequences: outs[i]!.sequences,
    })),
  };
}
