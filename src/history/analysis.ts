// What a row of statuses across runs says. Only passed and failed judge a rule (skipped, unverified, not run say
// nothing of it). A rule flips where its judged status changes from one run to the next; it is intermittent when it
// flipped twice or more among runs of one rampart version (it failed and came back, or passed and fell again). A
// failure tonight is then intermittent (its rule flips), new (it passed the last time it was judged, or was never
// judged before), or still failing (it failed the last time too). Nothing here changes a status: the verdict is the
// night's, this only tells its failures apart.

export type FailureClass = 'new' | 'intermittent' | 'still failing';

export interface StatusRow {
  /** The rule's (or the check's) key. */
  key: string;
  /** Its status in each run, oldest first; null where the run did not have it. */
  statuses: (string | null)[];
}

export interface RowHistory extends StatusRow {
  /** Changes of judged status between consecutive judged runs of the newest run's rampart version. */
  flips: number;
  intermittent: boolean;
  /** Indexes of the runs where it failed, and where it passed. */
  failedAt: number[];
  passedAt: number[];
}

export interface FailureInfo {
  class: FailureClass;
  /** The last run before this one where it passed, by index. */
  lastPassedAt?: number;
  /** The run where its current streak of failures began (still failing), by index. */
  failingSince?: number;
  /** Runs of the window where it was judged, and where it failed. */
  judged: number;
  failed: number;
}

const judged = (s: string | null): s is 'passed' | 'failed' => s === 'passed' || s === 'failed';

/** Flips among the judged statuses of the runs selected by `inWindow` (the same rampart version), up to `upTo`. */
function flipsOf(statuses: readonly (string | null)[], inWindow: (i: number) => boolean, upTo: number): number {
  let prev: string | undefined;
  let flips = 0;
  for (let i = 0; i <= upTo && i < statuses.length; i++) {
    const s = statuses[i] ?? null;
    if (!inWindow(i) || !judged(s)) continue;
    if (prev !== undefined && prev !== s) flips++;
    prev = s;
  }
  return flips;
}

/** Each row's flips and flag over all runs; `versions[i]` is run i's rampart version (the window is the newest run's). */
export function rowHistories(rows: readonly StatusRow[], versions: readonly string[]): RowHistory[] {
  const newest = versions[versions.length - 1];
  const inWindow = (i: number) => versions[i] === newest;
  return rows.map((r) => {
    const flips = flipsOf(r.statuses, inWindow, r.statuses.length - 1);
    return {
      ...r,
      flips,
      intermittent: flips >= 2,
      failedAt: r.statuses.flatMap((s, i) => (s === 'failed' ? [i] : [])),
      passedAt: r.statuses.flatMap((s, i) => (s === 'passed' ? [i] : [])),
    };
  });
}

/** How the failure of a row at run `at` stands against the runs before it (runs after it are not looked at). */
export function classifyAt(row: StatusRow, at: number, versions: readonly string[]): FailureInfo | undefined {
  if (row.statuses[at] !== 'failed') return undefined;
  const inWindow = (i: number) => versions[i] === versions[at];
  const before: { i: number; s: 'passed' | 'failed' }[] = [];
  for (let i = 0; i < at; i++) {
    const s = row.statuses[i] ?? null;
    if (inWindow(i) && judged(s)) before.push({ i, s });
  }
  const all = [...before, { i: at, s: 'failed' as const }];
  const counts = { judged: all.length, failed: all.filter((x) => x.s === 'failed').length };
  const lastPassed = [...before].reverse().find((x) => x.s === 'passed');
  const lastPassedAt = lastPassed ? { lastPassedAt: lastPassed.i } : {};
  if (flipsOf(row.statuses, inWindow, at) >= 2) return { class: 'intermittent', ...lastPassedAt, ...counts };
  const prev = before[before.length - 1];
  if (prev?.s === 'failed') {
    let since = at;
    for (let k = before.length - 1; k >= 0 && before[k]!.s === 'failed'; k--) since = before[k]!.i;
    return { class: 'still failing', failingSince: since, ...lastPassedAt, ...counts };
  }
  return { class: 'new', ...lastPassedAt, ...counts };
}

/** Pairs of consecutive judged runs where a row's status changed: { from, to, at } (at: the later run's index). */
export function flipsAlong(row: StatusRow): { from: string; to: string; at: number }[] {
  const out: { from: string; to: string; at: number }[] = [];
  let prev: { s: string; i: number } | undefined;
  row.statuses.forEach((s, i) => {
    if (!judged(s)) return;
    if (prev && prev.s !== s) out.push({ from: prev.s, to: s, at: i });
    prev = { s, i };
  });
  return out;
}
