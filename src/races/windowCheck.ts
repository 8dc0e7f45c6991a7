// The rounds of a window family (window.ts) inside its check: one burst past the route's first window per run —
// the window's numbers are the specs' own, so one burst judges them — fired on the key the check holds, judged by
// how many got through, a finding recorded when more got through than any reading of the window lets through.
import type { Pacer } from '../client/pacer.js';
import type { GateActor } from '../needs/define.js';
import { burstRecord } from './finding.js';
import { racesReplay } from '../report/racesReplay.js';
import type { RaceFindingRecord } from '../report/results.js';
import type { CheckTools } from '../runner/check.js';
import { CheckFailed } from '../runner/expect.js';
import { fireWindowBurst, firstWindowOf, oneEdgeExplainsBoth, type WindowBurst, type WindowFamily } from './window.js';

export interface WindowRun {
  pacer: Pacer;
  seed: number;
  rnd: () => number;
  profileFile?: string;
  faults?: readonly string[];
  findings: RaceFindingRecord[];
  counted: (requests: number, explained: boolean) => void;
}

function findingOf(family: WindowFamily, bursts: WindowBurst[], limit: number, run: WindowRun): RaceFindingRecord {
  const last = bursts.at(-1)!;
  const t0 = last.span[0];
  const what = `${bursts.map((b) => `${b.through} of ${b.fired.length}`).join(', then ')} requests got through a burst of ${family.route.method} ${family.route.path} on one key, where its window holds ${limit}${bursts.length > 1 ? ' — and no fixed bucket edge can fall inside both bursts' : ' — more than twice the window, past every reading of it'}`;
  return {
    family: family.id,
    check: family.name,
    requirement: family.requirements[0],
    what,
    round: 1,
    seed: run.seed,
    startedAt: new Date(t0).toISOString(),
    steps: [],
    burst: burstRecord(last.fired, t0),
    after: [],
    closest: {
      order: [],
      matched: 0,
      what: 'requests through the window',
      target: last.through,
      oracle: `at most ${limit}`,
      reading: {},
      oracleAnswers: [],
      oracleAfter: [],
    },
    tried: 0,
    replay: racesReplay({
      family: family.id,
      seed: run.seed,
      ...(run.profileFile ? { profile: run.profileFile } : {}),
      ...(run.faults ? { faults: run.faults } : {}),
      what,
    }),
  };
}

function fail(family: WindowFamily, bursts: WindowBurst[], limit: number, run: WindowRun): never {
  const f = findingOf(family, bursts, limit, run);
  run.findings.push(f);
  const through = bursts.at(-1)!.fired.find((x) => x.exchange && x.exchange.status !== 429)?.exchange;
  throw new CheckFailed(f.what, {
    requirement: f.requirement as CheckFailed['details']['requirement'],
    expected: `at most ${limit} through`,
    actual: `${bursts.at(-1)!.through} through`,
    ...(through ? { exchange: through } : {}),
  });
}

export async function windowRounds(family: WindowFamily, actor: GateActor, t: CheckTools, run: WindowRun): Promise<void> {
  const w = firstWindowOf(family.route, t.profile.timing.rateWindowScale);
  const n = 2 * w.limit + 1;
  const fire = () => fireWindowBurst(actor.client, run.pacer, actor.partner.secretKey, family.route, n, run.rnd, t);
  const first = await fire();
  t.observe('races.window', { family: family.id, fired: n, through: first.through, limit: w.limit });
  if (first.through <= w.limit) return run.counted(n, true);
  if (first.through > 2 * w.limit) {
    run.counted(n, false);
    fail(family, [first], w.limit, run);
  }
  // More than the limit, not twice it: a fixed bucket's edge may fall inside the burst. Half a window and a window on,
  // no edge can fall inside both.
  await t.sleep(
    Math.max(0, first.span[0] + 1.5 * w.windowMs - (performance.timeOrigin + performance.now())),
    'half a window and a window after the first burst',
    'harness',
  );
  const second = await fire();
  run.counted(2 * n, second.through <= w.limit);
  if (second.through <= w.limit) {
    t.observe(
      'races.window.fixedEdge',
      { family: family.id, first: first.through, second: second.through },
      'the first burst straddled a fixed bucket edge: the second, half a window on, kept to the window',
    );
    return;
  }
  if (!oneEdgeExplainsBoth(first.span, second.span, w.windowMs)) fail(family, [first, second], w.limit, run);
  t.unverified(
    `two bursts each let more than ${w.limit} through (${first.through}, ${second.through}), and their spans are too long to rule out a fixed bucket edge inside each`,
  );
}
