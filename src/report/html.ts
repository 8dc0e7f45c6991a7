// report.html: one self-contained file a partner's reviewer can read offline.
// Inline CSS and SVG only, a Content-Security-Policy that forbids any fetch,
// and every value from the run escaped (targets control the bodies we show).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { redact, redactDeep } from '../secrets/index.js';
import { POOLS_LIMITS } from '../model/limits.js';
import { readHistory, toHistoryRecord, type HistoryRecord } from './history.js';
import { scanText } from '../secrets/index.js';
import type { CheckFailure, ExchangeRecord, RequirementResult, RunResults } from './results.js';
import { buildSpecMap, SPEC_MAP_CSS, specMapHtml } from './specMap.js';
import { timeScaleNote } from './verdict.js';

export function esc(v: unknown): string {
  return String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

// Metric shapes: parsed leniently; a malformed metric renders as "no data" rather than breaking the report.
const num = z.number().refine(Number.isFinite);
const LatencySchema = z.record(z.string(), z.looseObject({ p50: num.optional(), p90: num.optional(), p95: num.optional(), p99: num.optional(), max: num.optional(), count: num.optional() }));
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
const RetryGapsSchema = z.array(z.looseObject({ delivery: z.unknown().optional(), check: z.string().optional(), attempt: num, expectedMs: num, observedMs: num }));

const NO_DATA = '<p class="nodata">no data in this run</p>';

function svg(width: number, height: number, body: string, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(label)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${body}</svg>`;
}

function latencyChart(metric: unknown): string {
  const parsed = LatencySchema.safeParse(metric);
  if (!parsed.success || Object.keys(parsed.data).length === 0) return NO_DATA;
  const rows = Object.entries(parsed.data).sort(([a], [b]) => a.localeCompare(b));
  const maxMs = Math.max(1, ...rows.map(([, v]) => v.max ?? v.p99 ?? v.p95 ?? 0));
  const left = 190, width = 760, plot = width - left - 170, rowH = 26;
  const x = (ms: number) => left + (Math.max(0, ms) / maxMs) * plot;
  let body = '';
  rows.forEach(([group, v], i) => {
    const y = 10 + i * rowH;
    body += `<text x="${left - 8}" y="${y + 13}" text-anchor="end" class="lbl">${esc(group)}</text>`;
    if (v.p50 !== undefined && v.p95 !== undefined) body += `<rect x="${x(v.p50)}" y="${y + 3}" width="${Math.max(1, x(v.p95) - x(v.p50))}" height="14" class="bar"/>`;
    if (v.p99 !== undefined || v.max !== undefined) body += `<line x1="${x(v.p95 ?? 0)}" x2="${x(v.max ?? v.p99 ?? 0)}" y1="${y + 10}" y2="${y + 10}" class="whisker"/>`;
    for (const [k, val] of [['p50', v.p50], ['p90', v.p90], ['p95', v.p95], ['p99', v.p99], ['max', v.max]] as const) {
      if (val === undefined) continue;
      body += `<line x1="${x(val)}" x2="${x(val)}" y1="${y + 1}" y2="${y + 19}" class="tick tick-${k}"><title>${esc(`${group} ${k} ${fmt(val, 1)} ms`)}</title></line>`;
    }
    body += `<text x="${width - 16}" y="${y + 13}" text-anchor="end" class="small">p95 ${esc(fmt(v.p95 ?? NaN, 0))} ms · n=${esc(fmt(v.count ?? NaN))}</text>`;
  });
  const h = 20 + rows.length * rowH + 20;
  body += `<line x1="${left}" x2="${left + plot}" y1="${h - 18}" y2="${h - 18}" class="axis"/><text x="${left}" y="${h - 4}" class="small">0 ms</text><text x="${left + plot}" y="${h - 4}" text-anchor="end" class="small">${esc(fmt(maxMs))} ms</text>`;
  return svg(width, h, body, 'latency per route group: box p50 to p95, whisker to max') + '<p class="legend">Box: p50 to p95; ticks at p50, p90, p95, p99; whisker to max.</p>';
}

function rateLimitChart(metric: unknown): string {
  const parsed = RateLimitsSchema.safeParse(metric);
  if (!parsed.success || parsed.data.length === 0) return NO_DATA;
  const left = 240, width = 760, plot = width - left - 40, rowH = 34;
  let body = '';
  parsed.data.forEach((r, i) => {
    const y = 8 + i * rowH;
    const first = r.measured.firstRejectedRequest ?? null;
    const expectedFirst = r.documented.firstRejectedRequest ?? r.documented.limit + 1;
    const span = Math.max(expectedFirst, r.documented.limit + 1, first ?? 0) * 1.1;
    const x = (n: number) => left + (n / span) * plot;
    body += `<text x="${left - 8}" y="${y + 12}" text-anchor="end" class="lbl">${esc(`${r.scenario}${r.window ? ' · ' + r.window : ''}`)}</text>`;
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
  return svg(width, 16 + parsed.data.length * rowH, body, 'rate-limit boundary: documented limit against the first rejected request') + '<p class="legend">Green bar: requests the documented limit allows; dashed line: where the first 429 is expected; dot: where it came.</p>';
}

function quoteTtlChart(metric: unknown): string {
  const parsed = QuoteTtlSchema.safeParse(metric);
  if (!parsed.success || parsed.data.samplesSeconds.length === 0) return NO_DATA;
  const { samplesSeconds: s, toleranceSeconds: tol } = parsed.data;
  const exp = parsed.data.expectedSeconds ?? POOLS_LIMITS.quoteTtlSeconds;
  const lo = Math.floor(Math.min(exp - tol, ...s)) - 1;
  const hi = Math.ceil(Math.max(exp + tol, ...s)) + 1;
  const bins = new Map<number, number>();
  for (const v of s) bins.set(Math.floor(v), (bins.get(Math.floor(v)) ?? 0) + 1);
  const maxCount = Math.max(1, ...bins.values());
  const left = 40, width = 760, plot = width - left - 20, top = 10, ph = 150;
  const x = (sec: number) => left + ((sec - lo) / (hi - lo)) * plot;
  let body = `<rect x="${x(exp - tol)}" y="${top}" width="${x(exp + tol) - x(exp - tol)}" height="${ph}" class="band"><title>${esc(`tolerance ${exp} ± ${tol} s`)}</title></rect>`;
  for (const [b, c] of [...bins.entries()].sort(([a], [b2]) => a - b2)) {
    const h = (c / maxCount) * (ph - 10);
    body += `<rect x="${x(b) + 1}" y="${top + ph - h}" width="${Math.max(1, x(b + 1) - x(b) - 2)}" height="${h}" class="bar"><title>${esc(`${b}–${b + 1} s: ${c} quote(s)`)}</title></rect>`;
  }
  body += `<line x1="${x(exp)}" x2="${x(exp)}" y1="${top}" y2="${top + ph}" class="expect"/>`;
  body += `<line x1="${left}" x2="${left + plot}" y1="${top + ph}" y2="${top + ph}" class="axis"/>`;
  for (let t = lo; t <= hi; t += Math.max(1, Math.ceil((hi - lo) / 12))) body += `<text x="${x(t)}" y="${top + ph + 14}" text-anchor="middle" class="small">${t}s</text>`;
  const outside = s.filter((v) => Math.abs(v - exp) > tol).length;
  return (
    svg(width, top + ph + 24, body, 'observed quote lifetimes') +
    `<p class="legend">${esc(`${s.length} quotes; documented about ${exp} s (shaded: ± ${tol} s tolerance); ${outside} outside the tolerance.`)}</p>`
  );
}

function retryGapChart(metric: unknown): string {
  const parsed = RetryGapsSchema.safeParse(metric);
  if (!parsed.success || parsed.data.length === 0) return NO_DATA;
  const rows = parsed.data;
  const left = 240, width = 760, plot = width - left - 20, rowH = 22;
  // Log scale: the retry schedule spans seconds to hours.
  const maxLog = Math.log10(Math.max(10, ...rows.map((r) => Math.max(r.expectedMs, r.observedMs))) + 1);
  const x = (ms: number) => left + (Math.log10(Math.max(0, ms) + 1) / maxLog) * plot;
  let body = '';
  rows.forEach((r, i) => {
    const y = 6 + i * rowH;
    const who = r.delivery !== undefined ? show(r.delivery) : r.check ?? '';
    body += `<text x="${left - 8}" y="${y + 12}" text-anchor="end" class="lbl">${esc(`${who.slice(0, 28)} #${r.attempt}`)}</text>`;
    body += `<rect x="${left}" y="${y + 2}" width="${x(r.expectedMs) - left}" height="6" class="bar ok"><title>${esc(`expected ${fmt(r.expectedMs)} ms`)}</title></rect>`;
    body += `<rect x="${left}" y="${y + 10}" width="${x(r.observedMs) - left}" height="6" class="bar"><title>${esc(`observed ${fmt(r.observedMs)} ms`)}</title></rect>`;
  });
  return svg(width, 12 + rows.length * rowH, body, 'webhook retry gaps: expected against observed') + '<p class="legend">Per attempt: upper bar the documented gap (scaled by the target\'s time scale), lower bar the observed gap; logarithmic scale.</p>';
}

function trendChart(history: HistoryRecord[]): string {
  if (history.length < 1) return NO_DATA;
  const left = 50, width = 760, plot = width - left - 140, top = 10, ph = 120;
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
  return out + `<p class="legend">${esc(`${n} run(s) of rampart ${history[n - 1]!.command} against ${history[n - 1]!.profile}, oldest ${history[0]!.runId}, newest ${history[n - 1]!.runId}.`)}</p>`;
}

function headersTable(h: Record<string, string> | undefined): string {
  if (!h || Object.keys(h).length === 0) return '';
  return `<table class="hdrs">${Object.entries(h)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
    .join('')}</table>`;
}

function exchangeBlock(x: ExchangeRecord, i: number): string {
  return `<details class="exchange"><summary>${esc(`#${i + 1} ${x.method} ${x.url} → ${x.status ?? x.error ?? 'no response'} · ${fmt(x.durationMs)} ms${x.requestId ? ` · request id ${x.requestId}` : ''}`)}</summary>
<div class="ex-grid"><div><h5>request</h5>${headersTable(x.requestHeaders)}${x.requestBody !== undefined ? `<pre>${esc(x.requestBody)}</pre>` : ''}</div>
<div><h5>response</h5>${headersTable(x.responseHeaders)}${x.responseBody !== undefined ? `<pre>${esc(x.responseBody)}</pre>` : ''}${x.error ? `<p class="bad">${esc(x.error)}</p>` : ''}</div></div></details>`;
}

function failureBlock(checkName: string, f: CheckFailure | undefined): string {
  if (!f) return `<div class="failure"><p><b>${esc(checkName)}</b>: failed</p></div>`;
  return `<div class="failure"><p><b>${esc(checkName)}</b>: ${esc(f.message)}</p>
<table class="ea">${f.requirement ? `<tr><th>requirement</th><td>${esc(f.requirement)}</td></tr>` : ''}${f.expected !== undefined ? `<tr><th>expected</th><td><pre>${esc(f.expected)}</pre></td></tr>` : ''}${f.actual !== undefined ? `<tr><th>actual</th><td><pre>${esc(f.actual)}</pre></td></tr>` : ''}${f.requestId ? `<tr><th>request id</th><td><code>${esc(f.requestId)}</code></td></tr>` : ''}</table>
${(f.exchanges ?? []).map(exchangeBlock).join('\n')}</div>`;
}

const STATUS_LABEL: Record<RequirementResult['status'], string> = {
  passed: 'passed',
  failed: 'failed',
  partial: 'partial',
  skipped: 'skipped',
  unverified: 'unverified',
  not_run: 'not run',
  not_covered: 'not covered',
  out_of_scope: 'out of scope',
};

function requirementRow(r: RequirementResult): string {
  const checks = r.checks.map((c) => `<li class="st-${esc(c.status)}">${esc(c.name)} — ${esc(c.status)}${c.reason ? `: ${esc(c.reason)}` : ''} <span class="small">${fmt(c.durationMs)} ms</span></li>`).join('');
  const failures = r.checks.filter((c) => c.status === 'failed').map((c) => failureBlock(c.name, c.failure)).join('');
  const missing = r.missingParts?.length ? `<ul class="small">${r.missingParts.map((m) => `<li>${esc(m)}</li>`).join('')}</ul>` : '';
  return `<tr id="${esc(r.id)}" class="st-${esc(r.status)}"><td><code>${esc(r.id)}</code></td><td>${esc(r.title)}</td><td><span class="badge b-${esc(r.status)}">${esc(STATUS_LABEL[r.status] ?? r.status)}</span>${r.reason ? `<div class="small">${esc(r.reason)}</div>` : ''}${missing}</td><td>${checks ? `<ul class="checks">${checks}</ul>` : ''}${failures}</td></tr>`;
}

function countStatuses(rs: RequirementResult[]): Record<RequirementResult['status'], number> {
  const c: Record<RequirementResult['status'], number> = { passed: 0, failed: 0, partial: 0, skipped: 0, unverified: 0, not_run: 0, not_covered: 0, out_of_scope: 0 };
  for (const r of rs) c[r.status] = (c[r.status] ?? 0) + 1;
  return c;
}

function countsText(c: Record<RequirementResult['status'], number>): string {
  return (Object.keys(STATUS_LABEL) as RequirementResult['status'][])
    .filter((k) => k === 'passed' || k === 'failed' || c[k] > 0)
    .map((k) => `${c[k]} ${STATUS_LABEL[k]}`)
    .join(' · ');
}

function matrix(results: RunResults): string {
  if (results.requirements.length === 0) return '<p class="nodata">no requirements were evaluated in this run</p>';
  let out = '';
  for (const service of ['gate', 'pools'] as const) {
    const reqs = results.requirements.filter((r) => r.service === service);
    if (!reqs.length) continue;
    const bySection = new Map<string, RequirementResult[]>();
    for (const r of reqs) bySection.set(r.section, [...(bySection.get(r.section) ?? []), r]);
    out += `<h3>${service === 'gate' ? 'Gate' : 'Pools'} <span class="small">${esc(countsText(countStatuses(reqs)))}</span></h3>`;
    for (const [section, rs] of bySection) {
      const c = countStatuses(rs);
      out += `<details class="section"${c.failed ? ' open' : ''}><summary><b>${esc(section)}</b> <span class="small">${esc(countsText(c))}</span>${c.failed ? ' <span class="badge b-failed">failures</span>' : ''}</summary>
<table class="matrix"><thead><tr><th>requirement</th><th>statement</th><th>status</th><th>checks</th></tr></thead><tbody>${rs.map(requirementRow).join('\n')}</tbody></table></details>`;
    }
  }
  return out;
}

function observationsTable(results: RunResults): string {
  if (!results.observations.length) return '<p class="nodata">no observations in this run</p>';
  return `<table class="obs"><thead><tr><th>service</th><th>topic</th><th>check</th><th>value</th><th>note</th></tr></thead><tbody>${results.observations
    .map((o) => `<tr><td>${esc(o.service)}</td><td><code>${esc(o.topic)}</code></td><td>${esc(o.check ?? '')}</td><td><pre>${esc(show(o.value))}</pre></td><td>${esc(o.note ?? '')}</td></tr>`)
    .join('')}</tbody></table>`;
}

function specMapSection(results: RunResults): string {
  const status = new Map(results.requirements.map((r) => [r.id, r.status]));
  const map = buildSpecMap();
  return ['gate', 'pools']
    .map((spec) => `<details class="section"><summary><b>${spec === 'gate' ? 'Gate' : 'Pools'} spec</b></summary>${specMapHtml(map, spec as 'gate' | 'pools', (id) => status.get(id))}</details>`)
    .join('\n');
}

/** The banner: the verdict computed by src/report/verdict.ts, never re-judged here. */
export function bannerOf(results: RunResults): { cls: string; label: string; detail: string } {
  const s = results.summary;
  const scale = timeScaleNote(s);
  const scope = `${results.command} at --depth ${results.depth}${scale ? `, ${scale}` : ''}${s.outOfScope ? `; ${s.outOfScope} requirements out of scope at this depth` : ''}`;
  const cls = s.verdict === 'CERTIFIED' ? 'v-ok' : s.verdict === 'NOT CERTIFIED' ? 'v-bad' : 'v-neutral';
  return { cls, label: s.verdict, detail: `${s.verdictLine} — ${scope}` };
}

function incompleteReasons(results: RunResults): string {
  const r = results.summary.incompleteReasons ?? [];
  if (!r.length || results.summary.verdict === 'CERTIFIED') return '';
  return `<details class="section" open><summary><b>Not asserted, by reason</b> <span class="small">what the profile or machine lacks</span></summary><ul>${r
    .map((g) => `<li><b>${g.requirements}</b> — ${esc(g.reason)}</li>`)
    .join('')}</ul></details>`;
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:16px 24px 48px}
h1{font-size:20px;margin:8px 0}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}h4{margin:12px 0 4px;font-size:13px}h5{margin:4px 0;font-size:12px;color:#57606a}
.verdict{padding:16px 20px;border-radius:8px;margin:12px 0;color:#fff}.verdict.v-ok{background:#1a7f37}.verdict.v-bad{background:#cf222e}.verdict.v-neutral{background:#9a6700}
.verdict .big{font-size:26px;font-weight:700;letter-spacing:.5px}
.counts{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0}.counts div{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 12px}.counts b{font-size:18px;display:block}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #d8dee4;padding:4px 6px;text-align:left;vertical-align:top}
table.meta{width:auto}table.meta th{background:#f6f8fa}
pre{white-space:pre-wrap;word-break:break-word;margin:0;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;max-height:320px;overflow:auto}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
details.section{margin:6px 0;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:4px 8px}details>summary{cursor:pointer}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;color:#fff}.b-passed{background:#1a7f37}.b-failed{background:#cf222e}.b-skipped{background:#9a6700}.b-partial{background:#bc4c00}.b-unverified{background:#8250df}.b-not_run{background:#6e7781}.b-not_covered{background:#8c959f}.b-out_of_scope{background:#afb8c1}
tr.st-failed{background:#fff5f5}.small{font-size:12px;color:#57606a}.bad{color:#cf222e}.nodata{color:#57606a;font-style:italic}
ul.checks{margin:0;padding-left:18px}li.st-failed{color:#cf222e}li.st-skipped{color:#9a6700}
.failure{border-left:3px solid #cf222e;padding:4px 8px;margin:6px 0;background:#fff}
.ex-grid{display:grid;grid-template-columns:1fr 1fr;gap:8px}table.hdrs th{width:30%;font-weight:500}
.legend{font-size:12px;color:#57606a;margin:2px 0 12px}
svg{background:#fff;border:1px solid #d0d7de;border-radius:6px;max-width:100%;height:auto}
svg .lbl{font-size:12px;fill:#1b1f24}svg .small{font-size:11px;fill:#57606a}
svg .bar{fill:#54aeff}svg .bar.ok{fill:#4ac26b}svg .band{fill:#dafbe1}svg .axis{stroke:#8c959f}
svg .whisker{stroke:#0969da;stroke-width:2}svg .tick{stroke:#0a3069;stroke-width:2}svg .tick-p95{stroke:#bf3989;stroke-width:3}
svg .expect{stroke:#1b1f24;stroke-dasharray:4 3}svg .dot-ok{fill:#1a7f37}svg .dot-bad{fill:#cf222e}
svg .line{fill:none;stroke-width:2}svg .s-pass{stroke:#1a7f37}svg .s-fail{stroke:#cf222e}svg .pt{stroke:none}svg .pt.s-pass{fill:#1a7f37}svg .pt.s-fail{fill:#cf222e}
svg .s-pass-t{fill:#1a7f37}svg .s-fail-t{fill:#cf222e}
svg .c0{stroke:#0969da}svg .c1{stroke:#bf3989}svg .c2{stroke:#9a6700}svg .c3{stroke:#1a7f37}svg .c4{stroke:#8250df}svg .c5{stroke:#cf222e}svg .c6{stroke:#57606a}svg .c7{stroke:#0a3069}
svg .c0-t{fill:#0969da}svg .c1-t{fill:#bf3989}svg .c2-t{fill:#9a6700}svg .c3-t{fill:#1a7f37}svg .c4-t{fill:#8250df}svg .c5-t{fill:#cf222e}svg .c6-t{fill:#57606a}svg .c7-t{fill:#0a3069}
nav a{margin-right:12px}button{font:inherit;margin:4px 8px 4px 0}
@media print{details{display:block}}
`;

// Expand/collapse every section: convenience only; the report reads fine without script.
const JS = `document.querySelectorAll('button[data-toggle]').forEach(function(b){b.addEventListener('click',function(){var open=b.getAttribute('data-toggle')==='open';document.querySelectorAll('details.section').forEach(function(d){d.open=open;});});});`;

export function toHtml(input: RunResults, history: HistoryRecord[] = []): string {
  const results = redactDeep(input);
  // A trend only means something across runs of the same command against the same target.
  const comparable = history.filter((h) => h.profile === results.profile.name && h.command === results.command);
  const hist = comparable.some((h) => h.runId === results.runId) ? comparable : [...comparable, toHistoryRecord(results)];
  const v = bannerOf(results);
  const s = results.summary;
  const m = results.metrics ?? {};
  const urls = Object.entries(results.profile.baseUrls ?? {}).filter(([, u]) => u);
  const failures = results.checks.filter((c) => c.status === 'failed');
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`rampart ${results.command} — ${v.label} — ${results.profile.name}`)}</title>
<style>${CSS}${SPEC_MAP_CSS}</style></head>
<body><main>
<h1>rampart ${esc(results.command)} report</h1>
<section id="verdict" class="verdict ${v.cls}">
<div class="big">${esc(v.label)}</div><div>${esc(v.detail)}</div></section>
<div class="counts"><div><b>${s.passed}</b>requirements passed</div><div><b>${s.failed}</b>failed</div><div><b>${s.partial ?? 0}</b>partial</div><div><b>${s.skipped}</b>skipped</div><div><b>${s.unverified ?? 0}</b>unverified</div><div><b>${s.notRun ?? 0}</b>not run</div><div><b>${s.notCovered}</b>not covered</div><div><b>${s.outOfScope ?? 0}</b>out of scope</div><div><b>${s.checks?.passed ?? 0}/${s.checks?.failed ?? 0}/${(s.checks?.skipped ?? 0) + (s.checks?.unverified ?? 0) + (s.checks?.notRun ?? 0)}</b>checks passed/failed/not asserted</div>${s.requestsPerRequirement !== undefined ? `<div><b>${s.requestsPerRequirement}</b>requests per requirement</div>` : ''}</div>
${incompleteReasons(results)}
<table class="meta">
<tr><th>target profile</th><td>${esc(results.profile.name)}</td></tr>
${urls.map(([k, u]) => `<tr><th>${esc(k)}</th><td><code>${esc(u)}</code></td></tr>`).join('\n')}
<tr><th>depth</th><td>${esc(results.depth)}</td></tr>
<tr><th>spec version</th><td>${esc(results.environment?.specVersion)}</td></tr>
<tr><th>run</th><td><code>${esc(results.runId)}</code> · ${esc(results.startedAt)} → ${esc(results.finishedAt)}</td></tr>
<tr><th>by</th><td>${esc(`${results.tool?.name ?? 'rampart'} ${results.tool?.version ?? ''} on ${results.environment?.host ?? '?'} (${results.environment?.platform ?? '?'}, node ${results.environment?.node ?? '?'})`)}</td></tr>
</table>
${results.error ? `<p class="bad"><b>Run error:</b> ${esc(results.error.message)} (exit ${esc(results.error.exitCode)})</p>` : ''}
<nav><a href="#matrix">requirements</a><a href="#failures">failures (${failures.length})</a><a href="#observations">observations (${results.observations.length})</a><a href="#charts">charts</a><a href="#trend">trend</a><a href="#specmap">spec map</a></nav>
<h2 id="matrix">Requirement matrix</h2>
<button type="button" data-toggle="open">expand all</button><button type="button" data-toggle="close">collapse all</button>
${matrix(results)}
<h2 id="failures">Failures</h2>
${failures.length ? failures.map((c) => `<h4>${esc(c.suite)} · ${esc(c.requirements.join(', '))}</h4>${failureBlock(c.name, c.failure)}`).join('\n') : '<p class="nodata">no failures</p>'}
<h2 id="observations">Observations ("not shown" behaviour and readings chosen)</h2>
${observationsTable(results)}
<h2 id="charts">Charts</h2>
<h3>Latency per route group (k6)</h3>${latencyChart(m.latency)}
<h3>Rate-limit boundary</h3>${rateLimitChart(m.rateLimits)}
<h3>Observed quote TTL</h3>${quoteTtlChart(m.quoteTtl)}
<h3>Webhook retry gaps against the schedule</h3>${retryGapChart(m.retryGaps)}
<h2 id="trend">Trend over the last runs</h2>
${trendChart(hist)}
<h2 id="specmap">Spec coverage map</h2>
<p class="legend">Every sentence, list item and table row of both specs: tested (by the requirements named, coloured by their status in this run), not shown (left open by the spec: observed, never failed), not testable from outside (hover for why), or unaccounted.</p>
${specMapSection(results)}
</main><script>${JS}</script></body></html>
`;
  // Belt and braces: the input was redacted, but the assembled page is masked once more.
  return redact(html);
}

/** Rebuild report.html from <runDir>/results.json; returns the path written. */
export async function renderReport(runDir: string): Promise<string> {
  const dir = resolve(runDir);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
  // Run directories live in <reportsDir>/<runId>; reports/latest may be a symlink, so resolve the history from the real parent when possible.
  const history = readHistory(dirname(dir));
  const out = join(dir, 'report.html');
  const html = toHtml(results, history);
  const findings = scanText(html);
  if (findings.length) throw new Error(`secret scan: ${[...new Set(findings.map((f) => f.kind))].join(', ')} in report.html; not written`);
  writeFileSync(out, html);
  return out;
}
