// k6's end-of-test summary (the handleSummary data each scenario writes to
// summary.json), and merging the summaries of a run split into execution
// segments into one: counts and check passes/fails are summed and rates
// recomputed from them; trends cannot be merged exactly from percentiles, so
// each segment's values are kept (perSegment) and the merged value is the
// conservative one — the largest of the segments' for every statistic but min
// (and count, a trend's samples, summed).
// Thresholds are judged again on the merged values where k6's expression is
// one rampart can read, else they pass only if they passed in every segment.

export interface SummaryMetric {
  type?: string;
  contains?: string;
  values?: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
  /** Merged summaries only: each segment's values, in segment order (undefined where a segment lacks the metric). */
  perSegment?: (Record<string, number> | undefined)[];
}

export interface SummaryCheck {
  name: string;
  path?: string;
  id?: string;
  passes: number;
  fails: number;
}

export interface SummaryGroup {
  name: string;
  path?: string;
  id?: string;
  checks?: SummaryCheck[] | Record<string, SummaryCheck>;
  groups?: SummaryGroup[] | Record<string, SummaryGroup>;
}

export interface Summary {
  metrics?: Record<string, SummaryMetric>;
  root_group?: SummaryGroup;
  state?: { testRunDurationMs?: number; [k: string]: unknown };
  options?: unknown;
  /** Merged summaries only: how many segment summaries went in. */
  segments?: number;
}

const listOf = <T>(x: T[] | Record<string, T> | undefined): T[] => (Array.isArray(x) ? x : Object.values(x ?? {}));

/** Names of the checks that failed at least once, with their counts. */
export function failedChecks(g: SummaryGroup | undefined, out: string[] = []): string[] {
  if (!g) return out;
  for (const c of listOf(g.checks)) if (c.fails > 0) out.push(`${c.name} (${c.fails} of ${c.passes + c.fails} failed)`);
  for (const sub of listOf(g.groups)) failedChecks(sub, out);
  return out;
}

const OPS: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '===': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

/** A k6 threshold expression ("p(95)<300", "rate==1", "count>=0") on the given values; undefined when it cannot be read. */
export function evaluateThreshold(expr: string, values: Record<string, number>): boolean | undefined {
  const m = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/i.exec(expr);
  if (!m) return undefined;
  const v = values[m[1]!];
  return v === undefined ? undefined : OPS[m[2]!]!(v, Number(m[3]));
}

function mergeValues(type: string | undefined, name: string, parts: Record<string, number>[], seconds: number): Record<string, number> {
  const sum = (k: string) => parts.reduce((a, p) => a + (p[k] ?? 0), 0);
  const max = (k: string) => Math.max(...parts.map((p) => p[k] ?? -Infinity));
  const min = (k: string) => Math.min(...parts.map((p) => p[k] ?? Infinity));
  if (type === 'counter') return { count: sum('count'), rate: seconds > 0 ? sum('count') / seconds : 0 };
  if (type === 'rate') {
    const passes = sum('passes');
    const fails = sum('fails');
    return { passes, fails, rate: passes + fails ? passes / (passes + fails) : 0 };
  }
  if (type === 'gauge') {
    // VUs run side by side in every segment: they add up. Any other gauge: its extremes.
    if (name === 'vus' || name === 'vus_max') return { value: sum('value'), min: sum('min'), max: sum('max') };
    return { value: max('value'), min: min('min'), max: max('max') };
  }
  const keys = new Set(parts.flatMap((p) => Object.keys(p)));
  const out: Record<string, number> = {};
  // A trend's sample count adds up; its other statistics merge to the conservative one.
  for (const k of keys) out[k] = k === 'min' ? min(k) : k === 'count' ? sum(k) : max(k);
  return out;
}

function mergeGroups(groups: SummaryGroup[]): SummaryGroup {
  const checks = new Map<string, SummaryCheck>();
  const subs = new Map<string, SummaryGroup[]>();
  for (const g of groups) {
    for (const c of listOf(g.checks)) {
      const key = c.path ?? c.name;
      const prev = checks.get(key);
      checks.set(key, prev ? { ...prev, passes: prev.passes + c.passes, fails: prev.fails + c.fails } : { ...c });
    }
    for (const s of listOf(g.groups)) subs.set(s.path ?? s.name, [...(subs.get(s.path ?? s.name) ?? []), s]);
  }
  const first = groups[0]!;
  return { ...first, checks: [...checks.values()], groups: [...subs.values()].map(mergeGroups) };
}

/** One summary for a run split into segments (in segment order). A single summary comes back unchanged. */
export function mergeSummaries(parts: Summary[]): Summary {
  if (parts.length === 1) return parts[0]!;
  const durationMs = Math.max(0, ...parts.map((p) => p.state?.testRunDurationMs ?? 0));
  const names = new Set(parts.flatMap((p) => Object.keys(p.metrics ?? {})));
  const metrics: Record<string, SummaryMetric> = {};
  for (const name of names) {
    const per = parts.map((p) => p.metrics?.[name]);
    const present = per.filter((m): m is SummaryMetric => !!m);
    const type = present[0]!.type;
    const values = mergeValues(
      type,
      name,
      present.map((m) => m.values ?? {}),
      durationMs / 1000,
    );
    const exprs = new Set(present.flatMap((m) => Object.keys(m.thresholds ?? {})));
    const samples = type === 'rate' ? (values.passes ?? 0) + (values.fails ?? 0) : type === 'counter' ? (values.count ?? 0) : 1;
    const thresholds: Record<string, { ok: boolean }> = {};
    for (const e of exprs) {
      const everywhere = present.every((m) => m.thresholds?.[e]?.ok !== false);
      // k6 leaves a threshold on a metric without samples unjudged (ok): so does the merge.
      const judged = samples > 0 ? evaluateThreshold(e, values) : undefined;
      thresholds[e] = { ok: judged ?? everywhere };
    }
    metrics[name] = {
      ...present[0],
      values,
      ...(exprs.size ? { thresholds } : {}),
      perSegment: per.map((m) => m?.values),
    };
  }
  const groups = parts.map((p) => p.root_group).filter((g): g is SummaryGroup => !!g);
  return {
    options: parts[0]!.options,
    state: { ...(parts[0]!.state ?? {}), testRunDurationMs: durationMs },
    metrics,
    ...(groups.length ? { root_group: mergeGroups(groups) } : {}),
    segments: parts.length,
  };
}
