// The report's History section, from the run store: this run among the last runs of its target and scope — the
// runs themselves (each linked to its report where it sits beside this one), tonight's failures told apart (new,
// intermittent, still failing), the intermittent rules with their runs, per requirement a strip of its statuses over
// the runs (this run last), and p95 per scenario and route group over the runs. The banner's line comes from here too.
import { describeFailure, nightLine, type Night } from '../history/night.js';
import type { RowHistory } from '../history/analysis.js';
import type { LatencySeries } from '../history/group.js';
import { esc, fmt } from './htmlEscape.js';

export const HISTORY_CSS = `
table.strips{width:auto}.strips td{padding:2px 8px}.strips td.ids{white-space:nowrap}.strip{display:inline-flex;gap:2px;vertical-align:middle;margin:0 8px 0 4px}
.strip i{display:inline-block;width:10px;height:14px;border-radius:2px;background:#d0d7de}
.strip i.h-passed{background:#1a7f37}.strip i.h-failed{background:#cf222e}.strip i.h-none{background:#f0f2f4;border:1px dashed #d0d7de;box-sizing:border-box}
.strip i.h-other{background:#d4a72c}.strip i.now{outline:2px solid #0d1117;outline-offset:1px}
.hist-runs{display:flex;flex-wrap:wrap;gap:4px 10px;margin:4px 0 10px;font-size:12px}.hist-runs .v-bad{color:#cf222e}.hist-runs .v-ok{color:#1a7f37}
ul.hist-fail li{margin:2px 0}.tag{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;color:#fff;background:#57606a}
.tag.t-new{background:#cf222e}.tag.t-intermittent{background:#bc4c00}.tag.t-still{background:#6e7781}
.verdict .hist{font-size:13px;margin:6px 0 0;background:rgba(0,0,0,.18);border-radius:4px;padding:4px 8px}
`;

const JUDGED = new Set(['passed', 'failed']);
const cellClass = (s: string | null) => (s === null ? 'h-none' : JUDGED.has(s) ? `h-${s}` : 'h-other');

function strip(row: RowHistory, night: Night): string {
  const runs = night.group.runs;
  return `<span class="strip" role="img" aria-label="${esc(`${row.key}: ${row.statuses.map((s) => s ?? '—').join(', ')}`)}">${row.statuses
    .map((s, i) => `<i class="${cellClass(s)}${i === night.at ? ' now' : ''}" title="${esc(`${runs[i]?.runId ?? ''}: ${s ?? 'not in this run'}`)}"></i>`)
    .join('')}</span>`;
}

function runsLine(night: Night): string {
  return `<div class="hist-runs">${night.group.runs
    .map((r, i) => {
      const cls = r.verdict === 'NOT CERTIFIED' ? 'v-bad' : r.verdict === 'CERTIFIED' || r.verdict === 'PASSED' ? 'v-ok' : '';
      const label = `${i + 1}. ${r.runId}`;
      const href = night.reports[r.runId];
      const faults = r.faults.length ? ` [faults: ${r.faults.join(', ')}]` : '';
      const name = i === night.at ? `<b>${esc(label)} (this run)</b>` : href ? `<a href="${esc(href)}">${esc(label)}</a>` : esc(label);
      return `<span>${name} <span class="${cls}">${esc(r.verdict)}</span><span class="small">${esc(faults)}</span></span>`;
    })
    .join('')}</div>`;
}

function tonight(night: Night): string {
  const f = night.group.failures[night.at];
  const items = [...(f?.requirements ?? new Map()), ...(f?.checks ?? new Map())];
  if (!items.length) return '<p class="small">No failure in this run.</p>';
  const tag = (c: string) => (c === 'new' ? 't-new' : c === 'intermittent' ? 't-intermittent' : 't-still');
  return `<ul class="hist-fail">${items
    .sort(([, a], [, b]) => a.class.localeCompare(b.class))
    .map(
      ([id, info]) =>
        `<li><span class="tag ${tag(info.class)}">${esc(info.class)}</span> <a href="#${esc(id)}"><code>${esc(id.replace(/^[^:]*:[^:]*::/, ''))}</code></a> <span class="small">${esc(describeFailure(info, night.group.runs))}</span></li>`,
    )
    .join('')}</ul>`;
}

function intermittentList(night: Night): string {
  const flagged = night.group.requirements.filter((r) => r.intermittent);
  if (!flagged.length) return '<p class="small">No requirement flips between these runs.</p>';
  const runs = night.group.runs;
  return `<ul class="hist-fail">${flagged
    .map(
      (r) =>
        `<li><code>${esc(r.key)}</code> ${strip(r, night)} <span class="small">${esc(`${r.flips} flips; failed in ${r.failedAt.map((i) => runs[i]?.runId).join(', ')}; passed in ${r.passedAt.length} run${r.passedAt.length === 1 ? '' : 's'}`)}</span></li>`,
    )
    .join('')}</ul>`;
}

function stripTable(rows: RowHistory[], night: Night): string {
  return `<table class="strips"><tbody>${rows.map((r) => `<tr><td class="ids"><code>${esc(r.key)}</code></td><td>${strip(r, night)}</td></tr>`).join('')}</tbody></table>`;
}

function strips(night: Night): string {
  const rows = night.group.requirements;
  const steady = rows.filter((r) => r.statuses.every((s) => s === 'passed'));
  const moving = rows.filter((r) => !steady.includes(r));
  return `${moving.length ? stripTable(moving, night) : '<p class="small">Every requirement passed in every run.</p>'}${
    steady.length
      ? `<details class="section"><summary>${steady.length} requirement${steady.length === 1 ? '' : 's'} passed in every run</summary>${stripTable(steady, night)}</details>`
      : ''
  }`;
}

function p95Trend(series: LatencySeries[], night: Night): string {
  const drawn = series.filter((s) => s.points.some((p) => p?.p95 !== undefined)).slice(0, 8);
  if (!drawn.length) return '<p class="small">No run of this group measured latency (load runs do).</p>';
  const n = night.group.runs.length;
  const left = 50,
    width = 760,
    plot = width - left - 190,
    top = 10,
    ph = 130;
  const max = Math.max(1, ...drawn.flatMap((s) => s.points.map((p) => p?.p95 ?? 0)));
  const x = (i: number) => left + (n === 1 ? plot / 2 : (i / (n - 1)) * plot);
  const y = (v: number) => top + ph - (v / max) * ph;
  let body = '';
  drawn.forEach((s, k) => {
    const pts = s.points.map((p, i) => [i, p?.p95] as const).filter((p): p is readonly [number, number] => p[1] !== undefined);
    const label = `${s.scenario === '*' ? '' : `${s.scenario} · `}${s.group}`;
    body += `<polyline points="${pts.map(([i, v]) => `${fmt(x(i), 1)},${fmt(y(v), 1)}`).join(' ')}" class="line c${k}"/>`;
    body += pts
      .map(
        ([i, v]) =>
          `<circle cx="${fmt(x(i), 1)}" cy="${fmt(y(v), 1)}" r="3" class="pt c${k}-t"><title>${esc(`${night.group.runs[i]?.runId}: ${label} p95 ${fmt(v, 1)} ms (${fmt(s.points[i]?.samples ?? NaN)} samples)`)}</title></circle>`,
      )
      .join('');
    body += `<text x="${left + plot + 10}" y="${top + 12 + k * 14}" class="small c${k}-t">${esc(label)}</text>`;
  });
  body += `<line x1="${left}" x2="${left + plot}" y1="${top + ph}" y2="${top + ph}" class="axis"/><text x="${left - 6}" y="${top + 8}" text-anchor="end" class="small">${fmt(max)} ms</text><text x="${left - 6}" y="${top + ph}" text-anchor="end" class="small">0</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="p95 per scenario and route group over the runs" viewBox="0 0 ${width} ${top + ph + 10}" width="${width}" height="${top + ph + 10}">${body}</svg><p class="legend">p95 (ms) of each route group per run, oldest left, this run right.</p>`;
}

/** The History section's body; without a store, what would give it one. */
export function historySection(night: Night | undefined): string {
  if (!night)
    return '<p class="nodata">no run store for this report: runs record themselves in reports/history.db (or --history postgres://…); rebuild the report after a run to see its history</p>';
  const g = night.group;
  return `<p class="small">${esc(`${g.runs.length} run${g.runs.length === 1 ? '' : 's'} of ${night.target} (${night.scope}) in ${night.store}, oldest first; the embedded target's runs with and without --fault are one target.`)}</p>
${runsLine(night)}
<h3>This run's failures against the runs before it</h3>${tonight(night)}
<h3>Intermittent requirements <span class="small">status flips between runs of one rampart version, profile and scope: nothing was retried</span></h3>${intermittentList(night)}
<h3>Per requirement, the last ${g.runs.length} runs <span class="small">green passed, red failed, amber not asserted, dashed not in that run; outlined: this run</span></h3>${strips(night)}
<h3>p95 per route group over the runs</h3>${p95Trend(g.latency, night)}`;
}

/** The banner's history line (nothing when the run failed nothing or has no store). */
export function historyBanner(night: Night | undefined): string {
  const line = night ? nightLine(night) : undefined;
  return line ? `<p class="hist">Failures against the last runs: ${esc(line)}</p>` : '';
}
