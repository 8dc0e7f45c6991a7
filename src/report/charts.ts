// The charts of report.html: inline SVG drawn from the run's metrics, parsed
// leniently (a malformed metric renders as "no data", never breaks the page),
// and the links to each k6 scenario's web dashboard.
import { z } from 'zod';
import { POOLS_LIMITS } from '../model/limits.js';
import type { HistoryRecord } from './history.js';
import { esc, fmt, NO_DATA, show } from './htmlEscape.js';

// Metric shapes: parsed leniently; a malformed metric renders as "no data" rather than breaking the report.
const num = z.number().refine(Number.isFinite);
const LatencySchema = z.record(
  z.string(),
  z.looseObject({ p50: num.optional(), p90: num.optional(), p95: num.optional(), p99: num.optional(), max: num.optional(), count: num.optional() }),
);
const RateLimitsSchema = z.array(
  z.looseObject({
    scenario: z.string(),
    key: z.string().optional(),
    case: z.string().optional(),
    window: z.string().optional(),
    // firstRejectedRequest: where the documented boundary puts the first 429 (limit + 1 unless a route window says otherwise).
    documented: z.looseObject({ limit: num, windowMs: num, firstRejectedRequest: num.optional() }),
    measured: z.looseObject({ firstRejectedRequest: num.nullable().optional(), atMs: num.nullable().optional() }),
  }),
);
// expectedSeconds falls back to the documented TTL when the profile declares none.
const QuoteTtlSchema = z.looseObject({ samplesSeconds: z.array(num), toleranceSeconds: num, expectedSeconds: num.optional() });
const RetryGapsSchema = z.array(
  z.looseObject({ delivery: z.unknown().optional(), check: z.string().optional(), attempt: num, expectedMs: num, observedMs: num }),
);

function svg(width: number, height: number, body: string, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(label)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${body}</svg>`;
}

export function latencyChart(metric: unknown): string {
  const parsed = LatencySchema.safeParse(metric);
  if (!parsed.success || Object.keys(parsed.data).length === 0) return NO_DATA;
  const rows = Object.entries(parsed.data).sort(([a], [b]) => a.localeCompare(b));
  const maxMs = Math.max(1, ...rows.map(([, v]) => v.max ?? v.p99 ?? v.p95 ?? 0));
  const left = 190,
    width = 760,
    plot = width - left - 170,
    rowH = 26;
  const x = (ms: number) => left + (Math.max(0, ms) / maxMs) * plot;
  let body = '';
  rows.forEach(([group, v], i) => {
    const y = 10 + i * rowH;
    body += `<text x="${left - 8}" y="${y + 13}" text-anchor="end" class="lbl">${esc(group)}</text>`;
    if (v.p50 !== undefined && v.p95 !== undefined)
      body += `<rect x="${x(v.p50)}" y="${y + 3}" width="${Math.max(1, x(v.p95) - x(v.p50))}" height="14" class="bar"/>`;
    if (v.p99 !== undefined || v.max !== undefined)
      body += `<line x1="${x(v.p95 ?? 0)}" x2="${x(v.max ?? v.p99 ?? 0)}" y1="${y + 10}" y2="${y + 10}" class="whisker"/>`;
    for (const [k, val] of [
      ['p50', v.p50],
      ['p90', v.p90],
      ['p95', v.p95],
      ['p99', v.p99],
      ['max', v.max],
    ] as const) {
      if (val === undefined) continue;
      body += `<line x1="${x(val)}" x2="${x(val)}" y1="${y + 1}" y2="${y + 19}" class="tick tick-${k}"><title>${esc(`${group} ${k} ${fmt(val, 1)} ms`)}</title></line>`;
    }
    body += `<text x="${width - 16}" y="${y + 13}" text-anchor="end" class="small">p95 ${esc(fmt(v.p95 ?? NaN, 0))} ms · n=${esc(fmt(v.count ?? NaN))}</text>`;
  });
  const h = 20 + rows.length * rowH + 20;
  body += `<line x1="${left}" x2="${left + plot}" y1="${h - 18}" y2="${h - 18}" class="axis"/><text x="${left}" y="${h - 4}" class="small">0 ms</text><text x="${left + plot}" y="${h - 4}" text-anchor="end" class="small">${esc(fmt(maxMs))} ms</text>`;
  return (
    svg(width, h, body, 'latency per route group: box p50 to p95, whisker to max') +
    '<p class="legend">Box: p50 to p95; ticks at p50, p90, p95, p99; whisker to max.</p>'
  );
}

export function rateLimitChart(metric: unknown): string {
  const parsed = RateLimitsSchema.safeParse(metric);
  if (!parsed.success || parsed.data.length === 0) return NO_DATA;
  const left = 240,
    width = 760,
    plot = width - left - 40,
    rowH = 34;
  let body = '';
  parsed.data.forEach((r, i) => {
    const y = 8 + i * rowH;
    const first = r.measured.firstRejectedRequest ?? null;
    const expectedFirst = r.documented.firstRejectedRequest ?? r.documented.limit + 1;
    const span = Math.max(expectedFirst, r.documented.limit + 1, first ?? 0) * 1.1;
    const x = (n: number) => left + (n / span) * plot;
    const label = `${r.scenario}${r.window ? ' · ' + r.window : ''}`;
    // Long labels are cut to fit the margin; the whole one shows on hover.
    body += `<text x="${left - 8}" y="${y + 12}" text-anchor="end" class="lbl"><title>${esc(label)}</title>${esc(label.length > 34 ? `${label.slice(0, 33)}…` : label)}</text>`;
    const sub = [r.case, r.key].filter(Boolean).join(' · ');
    if (sub) body += `<text x="${left - 8}" y="${y + 25}" text-anchor="end" class="small">${esc(sub)}</text>`;
    body += `<rect x="${left}" y="${y + 4}" width="${x(r.documented.limit) - left}" height="12" class="bar ok"><title>${esc(`documented: ${r.documented.limit} requests per ${r.documented.windowMs} ms`)}</title></rect>`;
    body += `<line x1="${x(expectedFirst)}" x2="${x(expectedFirst)}" y1="${y}" y2="${y + 22}" class="expect"/>`;
    if (first !== null) {
      const match = first === expectedFirst;
      body += `<circle cx="${x(first)}" cy="${y + 10}" r="5" class="${match ? 'dot-ok' : 'dot-bad'}"><title>${esc(`first 429 at request ${first}${r.measured.atMs != null ? `, ${fmt(r.measured.atMs)} ms into the window` : ''}`)}</title></circle>`;
    }
    body += `<text x="${left}" y="${y + 29}" class="small">${esc(`limit ${r.documented.limit}/${fmt(r.documented.windowMs / 1000, 0)} s · first 429 expected at request ${expectedFirst}, came ${first === null ? 'never' : `at request ${first}`}${r.measured.atMs != null ? ` at ${fmt(r.measured.atMs)} ms` : ''}`)}</text>`;
  });
  return (
    svg(width, 16 + parsed.data.length * rowH, body, 'rate-limit boundary: documented limit against the first rejected request') +
    '<p class="legend">Green bar: requests the documented limit allows; dashed line: where the first 429 is expected; dot: where it came.</p>'
  );
}

export function quoteTtlChart(metric: unknown): string {
  const parsed = QuoteTtlSchema.safeParse(metric);
  if (!parsed.success || parsed.data.samplesSeconds.length === 0) return NO_DATA;
  const { samplesSeconds: s, toleranceSeconds: tol } = parsed.data;
  const exp = parsed.data.expectedSeconds ?? POOLS_LIMITS.quoteTtlSeconds;
  const lo = Math.floor(Math.min(exp - tol, ...s)) - 1;
  const hi = Math.ceil(Math.max(exp + tol, ...s)) + 1;
  const bins = new Map<number, number>();
  for (const v of s) bins.set(Math.floor(v), (bins.get(Math.floor(v)) ?? 0) + 1);
  const maxCount = Math.max(1, ...bins.values());
  const left = 40,
    width = 760,
    plot = width - left - 20,
    top = 10,
    ph = 150;
  const x = (sec: number) => left + ((sec - lo) / (hi - lo)) * plot;
  let body = `<rect x="${x(exp - tol)}" y="${top}" width="${x(exp + tol) - x(exp - tol)}" height="${ph}" class="band"><title>${esc(`tolerance ${exp} ± ${tol} s`)}</title></rect>`;
  for (const [b, c] of [...bins.entries()].sort(([a], [b2]) => a - b2)) {
    const h = (c / maxCount) * (ph - 10);
    body += `<rect x="${x(b) + 1}" y="${top + ph - h}" width="${Math.max(1, x(b + 1) - x(b) - 2)}" height="${h}" class="bar"><title>${esc(`${b}–${b + 1} s: ${c} quote(s)`)}</title></rect>`;
  }
  body += `<line x1="${x(exp)}" x2="${x(exp)}" y1="${top}" y2="${top + ph}" class="expect"/>`;
  body += `<line x1="${left}" x2="${left + plot}" y1="${top + ph}" y2="${top + ph}" class="axis"/>`;
  for (let t = lo; t <= hi; t += Math.max(1, Math.ceil((hi - lo) / 12)))
    body += `<text x="${x(t)}" y="${top + ph + 14}" text-anchor="middle" class="small">${t}s</text>`;
  const outside = s.filter((v) => Math.abs(v - exp) > tol).length;
  return (
    svg(width, top + ph + 24, body, 'observed quote lifetimes') +
    `<p class="legend">${esc(`${s.length} quotes; documented about ${exp} s (shaded: ± ${tol} s tolerance); ${outside} outside the tolerance.`)}</p>`
  );
}

export function retryGapChart(metric: unknown): string {
  const parsed = RetryGapsSchema.safeParse(metric);
  if (!parsed.success || parsed.data.length === 0) return NO_DATA;
  const rows = parsed.data;
  const left = 240,
    width = 760,
    plot = width - left - 20,
    rowH = 22;
  // Log scale: the retry schedule spans seconds to hours.
  const maxLog = Math.log10(Math.max(10, ...rows.map((r) => Math.max(r.expectedMs, r.observedMs))) + 1);
  const x = (ms: number) => left + (Math.log10(Math.max(0, ms) + 1) / maxLog) * plot;
  let body = '';
  rows.forEach((r, i) => {
    const y = 6 + i * rowH;
    const who = r.delivery !== undefined ? show(r.delivery) : (r.check ?? '');
    body += `<text x="${left - 8}" y="${y + 12}" text-anchor="end" class="lbl">${esc(`${who.slice(0, 28)} #${r.attempt}`)}</text>`;
    body += `<rect x="${left}" y="${y + 2}" width="${x(r.expectedMs) - left}" height="6" class="bar ok"><title>${esc(`expected ${fmt(r.expectedMs)} ms`)}</title></rect>`;
    body += `<rect x="${left}" y="${y + 10}" width="${x(r.observedMs) - left}" height="6" class="bar"><title>${esc(`observed ${fmt(r.observedMs)} ms`)}</title></rect>`;
  });
  return (
    svg(width, 12 + rows.length * rowH, body, 'webhook retry gaps: expected against observed') +
    '<p class="legend">Per attempt: upper bar the documented gap (scaled by the target\'s time scale), lower bar the observed gap; logarithmic scale.</p>'
  );
}

export function trendChart(history: HistoryRecord[]): string {
  if (history.length < 1) return NO_DATA;
  const left = 50,
    width = 760,
    plot = width - left - 140,
    top = 10,
    ph = 120;
  const n = history.length;
  const x = (i: number) => left + (n === 1 ? plot / 2 : (i / (n - 1)) * plot);
  const series = (vals: number[], max: number, cls: string, label: string, idx: number) => {
    const pts = vals.map((v, i) => `${fmt(x(i), 1)},${fmt(top + ph - (v / Math.max(1, max)) * ph, 1)}`).join(' ');
    return `<polyline points="${pts}" class="line ${cls}"/>${vals.map((v, i) => `<circle cx="${fmt(x(i), 1)}" cy="${fmt(top + ph - (v / Math.max(1, max)) * ph, 1)}" r="3" class="pt ${cls}"><title>${esc(`${history[i]!.runId}: ${label} ${fmt(v, 0)}`)}</title></circle>`).join('')}<text x="${left + plot + 10}" y="${top + 12 + idx * 14}" class="small ${cls}-t">${esc(label)}</text>`;
  };
  const passed = history.map((h) => h.summary.passed);
  const failed = history.map((h) => h.summary.failed);
  const maxCount = Math.max(1, ...passed, ...failed);
  let counts = series(passed, maxCount, 's-pass', 'requirements passed', 0) + series(failed, maxCount, 's-fail', 'requirements failed', 1);
  counts += `<line x1="${left}" x2="${left + plot}" y1="${top + ph}" y2="${top + ph}" class="axis"/><text x="${left - 6}" y="${top + 8}" text-anchor="end" class="small">${maxCount}</text><text x="${left - 6}" y="${top + ph}" text-anchor="end" class="small">0</text>`;
  let out = svg(width, top + ph + 10, counts, 'pass counts over the last runs');
  const groups = [...new Set(history.flatMap((h) => Object.keys(h.p95ByGroup ?? {})))].sort();
  if (groups.length) {
    const maxP95 = Math.max(1, ...history.flatMap((h) => Object.values(h.p95ByGroup ?? {})));
    let lat = '';
    groups.slice(0, 8).forEach((g, gi) => {
      const pts = history.map((h, i) => [i, h.p95ByGroup?.[g]] as const).filter(([, v]) => typeof v === 'number') as [number, number][];
      const pl = pts.map(([i, v]) => `${fmt(x(i), 1)},${fmt(top + ph - (v / maxP95) * ph, 1)}`).join(' ');
      lat += `<polyline points="${pl}" class="line c${gi}"/><text x="${left + plot + 10}" y="${top + 12 + gi * 14}" class="small c${gi}-t">${esc(g)}</text>`;
    });
    lat += `<line x1="${left}" x2="${left + plot}" y1="${top + ph}" y2="${top + ph}" class="axis"/><text x="${left - 6}" y="${top + 8}" text-anchor="end" class="small">${fmt(maxP95)} ms</text>`;
    out += '<h4>p95 latency per route group</h4>' + svg(width, top + ph + 10, lat, 'p95 latency over the last runs');
  } else {
    out += '<h4>p95 latency per route group</h4>' + NO_DATA;
  }
  return (
    out +
    `<p class="legend">${esc(`${n} run(s) of rampart ${history[n - 1]!.command} against ${history[n - 1]!.profile}, oldest ${history[0]!.runId}, newest ${history[n - 1]!.runId}.`)}</p>`
  );
}

// A dashboard path is rampart's own (k6/<scenario>/…/dashboard.html), relative to the run directory; anything else is not linked.
const DASHBOARD_PATH = /^(?![/\\])(?!.*\.\.)[A-Za-z0-9._/-]+\.html$/;
const DashboardsSchema = z.record(z.string(), z.array(z.string()));

/** Each k6 scenario's web-dashboard export, linked relative to report.html (both live in the run directory). */
export function k6DashboardLinks(metric: unknown): string {
  const parsed = DashboardsSchema.safeParse(metric);
  const rows = parsed.success
    ? Object.entries(parsed.data)
        .map(([scenario, files]) => [scenario, files.filter((f) => DASHBOARD_PATH.test(f))] as const)
        .filter(([, files]) => files.length > 0)
        .sort(([a], [b]) => a.localeCompare(b))
    : [];
  if (rows.length === 0) return '<p class="nodata">no k6 dashboard in this run (load runs with k6 write one per scenario)</p>';
  return `<ul class="dashboards">${rows
    .map(
      ([scenario, files]) =>
        `<li><b>${esc(scenario)}</b>: ${files.map((f, i) => `<a href="${esc(f)}">${esc(files.length > 1 ? `segment ${i + 1}` : 'dashboard')}</a> <span class="small"><code>${esc(f)}</code></span>`).join(' · ')}</li>`,
    )
    .join(
      '',
    )}</ul><p class="legend">k6's own web dashboard of each scenario (one per execution segment), next to this report in the run directory; it opens offline.</p>`;
}
