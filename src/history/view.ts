// What `rampart history` shows: the runs of one target and scope (the newest run's, unless --profile names the
// target), oldest first, each with its verdict and how its failures stood; per requirement its row of statuses
// and whether it is intermittent; what is new since the last passing run, what flipped between the last two runs,
// and p95 per scenario and route group over the runs. As JSON (--json) or as lines for the terminal.
import { flipsAlong } from './analysis.js';
import { readGroup, type GroupHistory } from './group.js';
import { describeScopeKey } from './identity.js';
import type { HistoryStore } from './store.js';

export interface HistoryQuery {
  targetKey?: string;
  targetName?: string;
  since?: string;
  last: number;
}

export interface HistoryView {
  store: string;
  target?: { name: string; key: string };
  scope?: { key: string; description: string };
  runs: {
    runId: string;
    startedAt: string;
    finishedAt: string;
    command: string;
    verdict: string;
    verdictLine: string;
    rampartVersion: string;
    faults: string[];
    source: string;
    baselineRunId?: string;
    newFailures: string[];
    intermittentFailures: string[];
    stillFailing: string[];
  }[];
  requirements: { id: string; statuses: (string | null)[]; intermittent: boolean; flips: number; failedIn: string[] }[];
  new: { lastPassingRun: string | null; failures: string[] };
  flipped: { id: string; from: string; to: string; runId: string }[];
  intermittent: { id: string; runs: { runId: string; status: string | null }[] }[];
  p95: { scenario: string; group: string; points: { runId: string; p95: number | null; samples: number | null }[] }[];
  otherGroups: { target: string; scope: string; runs: number; last: string }[];
}

const PASSING = new Set(['CERTIFIED', 'PASSED']);

function byClass(g: GroupHistory, i: number, c: string): string[] {
  const f = g.failures[i];
  if (!f) return [];
  return [...f.requirements].filter(([, x]) => x.class === c).map(([id]) => id);
}

/** The latest run's failures that passed in the last passing run before it. */
function newSinceLastPass(g: GroupHistory): HistoryView['new'] {
  const last = g.runs.length - 1;
  if (last < 0) return { lastPassingRun: null, failures: [] };
  let p = -1;
  for (let i = last - 1; i >= 0; i--)
    if (PASSING.has(g.runs[i]!.verdict)) {
      p = i;
      break;
    }
  const failed = g.requirements.filter((r) => r.statuses[last] === 'failed');
  if (p < 0) return { lastPassingRun: null, failures: failed.filter((r) => !r.statuses.slice(0, last).includes('failed')).map((r) => r.key) };
  return { lastPassingRun: g.runs[p]!.runId, failures: failed.filter((r) => r.statuses[p] === 'passed').map((r) => r.key) };
}

export async function historyView(store: HistoryStore, q: HistoryQuery): Promise<HistoryView> {
  const newest = (await store.runs({ targetKey: q.targetKey, targetName: q.targetName, since: q.since, last: 1 }))[0];
  const groups = await store.groups();
  const empty: HistoryView = {
    store: store.where,
    runs: [],
    requirements: [],
    new: { lastPassingRun: null, failures: [] },
    flipped: [],
    intermittent: [],
    p95: [],
    otherGroups: [],
  };
  if (!newest) return { ...empty, otherGroups: groups.map((x) => ({ target: x.targetName, scope: describeScopeKey(x.scopeKey), runs: x.runs, last: x.last })) };
  const g = await readGroup(store, { targetKey: newest.targetKey, scopeKey: newest.scopeKey, since: q.since, last: q.last });
  const ids = g.runs.map((r) => r.runId);
  const last = g.runs.length - 1;
  return {
    store: store.where,
    target: { name: newest.targetName, key: newest.targetKey },
    scope: { key: newest.scopeKey, description: describeScopeKey(newest.scopeKey) },
    runs: g.runs.map((r, i) => ({
      runId: r.runId,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      command: r.command,
      verdict: r.verdict,
      verdictLine: r.verdictLine,
      rampartVersion: r.rampartVersion,
      faults: r.faults,
      source: r.source,
      ...(r.baselineRunId ? { baselineRunId: r.baselineRunId } : {}),
      newFailures: byClass(g, i, 'new'),
      intermittentFailures: byClass(g, i, 'intermittent'),
      stillFailing: byClass(g, i, 'still failing'),
    })),
    requirements: g.requirements.map((r) => ({
      id: r.key,
      statuses: r.statuses,
      intermittent: r.intermittent,
      flips: r.flips,
      failedIn: r.failedAt.map((i) => ids[i]!),
    })),
    new: newSinceLastPass(g),
    flipped: g.requirements.flatMap((r) =>
      flipsAlong(r)
        .filter((f) => f.at === last)
        .map((f) => ({ id: r.key, from: f.from, to: f.to, runId: ids[f.at]! })),
    ),
    intermittent: g.requirements.filter((r) => r.intermittent).map((r) => ({ id: r.key, runs: r.statuses.map((status, i) => ({ runId: ids[i]!, status })) })),
    p95: g.latency.map((s) => ({
      scenario: s.scenario,
      group: s.group,
      points: s.points.map((p, i) => ({ runId: ids[i]!, p95: p?.p95 ?? null, samples: p?.samples ?? null })),
    })),
    otherGroups: groups
      .filter((x) => !(x.targetKey === newest.targetKey && x.scopeKey === newest.scopeKey))
      .map((x) => ({ target: x.targetName, scope: describeScopeKey(x.scopeKey), runs: x.runs, last: x.last })),
  };
}

const GLYPH: Record<string, string> = { passed: '✓', failed: '✗' };
const glyphs = (statuses: readonly (string | null)[]) => statuses.map((s) => (s === null ? '·' : (GLYPH[s] ?? '-'))).join('');

/** The view as the terminal prints it. */
export function formatHistory(v: HistoryView): string[] {
  if (!v.runs.length)
    return [
      `no runs in ${v.store}${v.otherGroups.length ? '' : ' yet'} match`,
      ...v.otherGroups.map((x) => `  other: ${x.target} (${x.scope}): ${x.runs} runs, newest ${x.last}`),
    ];
  const out = [`history of ${v.target!.name} (${v.scope!.description}) in ${v.store}: ${v.runs.length} runs, oldest first`];
  v.runs.forEach((r, i) => {
    const told = [
      r.newFailures.length ? `new: ${r.newFailures.join(', ')}` : '',
      r.intermittentFailures.length ? `intermittent: ${r.intermittentFailures.join(', ')}` : '',
      r.stillFailing.length ? `still failing: ${r.stillFailing.length}` : '',
    ].filter(Boolean);
    out.push(
      `  ${String(i + 1).padStart(2)} ${r.runId}  ${r.verdict}${r.faults.length ? ` [faults: ${r.faults.join(', ')}]` : ''}${told.length ? ` — ${told.join('; ')}` : ''}`,
    );
  });
  const steady = v.requirements.filter((r) => r.statuses.every((s) => s === 'passed'));
  const moving = v.requirements.filter((r) => !steady.includes(r));
  const width = Math.max(0, ...moving.map((r) => r.id.length));
  out.push(
    `requirements: ${v.requirements.length} (${steady.length} passed in every run)${moving.length ? '; the others (✓ passed, ✗ failed, - not asserted, · not in that run):' : ''}`,
  );
  for (const r of moving) out.push(`  ${r.id.padEnd(width)}  ${glyphs(r.statuses)}${r.intermittent ? `  intermittent (${r.flips} flips)` : ''}`);
  out.push(
    v.new.lastPassingRun
      ? `new since the last passing run (${v.new.lastPassingRun}): ${v.new.failures.join(', ') || 'nothing'}`
      : `new in the latest run: ${v.new.failures.join(', ') || 'nothing'} (no earlier run passed)`,
  );
  out.push(`flipped in the latest run: ${v.flipped.map((f) => `${f.id} ${f.from} → ${f.to}`).join(', ') || 'nothing'}`);
  if (v.p95.length) {
    out.push('p95 per scenario and route group (ms), oldest first:');
    for (const s of v.p95)
      out.push(
        `  ${`${s.scenario === '*' ? '' : `${s.scenario} · `}${s.group}`.padEnd(22)} ${s.points.map((p) => (p.p95 === null ? '—' : p.p95.toFixed(1))).join('  ')}`,
      );
  }
  for (const x of v.otherGroups) out.push(`other: ${x.target} (${x.scope}): ${x.runs} runs, newest ${x.last}`);
  return out;
}
