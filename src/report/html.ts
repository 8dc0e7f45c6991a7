// report.html: one self-contained file a partner's reviewer can read offline,
// in the order a reviewer asks: the verdict and what it covered, the failures
// (diff and a command to replay each), what was not asserted and why, then the
// requirement matrix, observations, charts, trend and the spec map.
// Inline CSS, SVG and script only, a Content-Security-Policy that forbids any
// fetch, and every value from the run escaped (targets control the bodies we show).
import { EXPLORATION_CSS, explorationSection } from './exploration.js';
import { RACES_CSS, racesSection } from './races.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { redact, redactDeep } from '../secrets/index.js';
import { scanText } from '../secrets/index.js';
import { CATALOGUE } from '../model/catalogue/index.js';
import { k6DashboardLinks, latencyChart, quoteTtlChart, rateLimitChart, retryGapChart, trendChart } from './charts.js';
import { failureCards } from './failureCards.js';
import { readHistory, toHistoryRecord, type HistoryRecord } from './history.js';
import { esc, fmt, show } from './htmlEscape.js';
import { PAGE_CSS, PAGE_JS } from './htmlPage.js';
import type { RequirementResult, RunResults } from './results.js';
import { buildSpecMap, SPEC_MAP_CSS, specMapHtml } from './specMap.js';
import { inSpecOrder } from './sectionOrder.js';
import { HISTORY_CSS, historyBanner, historySection } from './historySection.js';
import type { Night } from '../history/night.js';
import { gatesFact, scopeOf, timeScaleNote } from './verdict.js';
import { describeTargetClock } from '../wire/targetTime.js';

export { esc };

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

function requirementRow(r: RequirementResult, anchors: Map<string, string>): string {
  const checks = r.checks
    .map((c) => {
      const card = c.status === 'failed' ? anchors.get(c.name) : undefined;
      return `<li class="st-${esc(c.status)}">${esc(c.name)} — ${esc(c.status)}${c.reason ? `: ${esc(c.reason)}` : ''}${card ? ` <a href="#${esc(card)}">see the failure</a>` : ''} <span class="small">${fmt(c.durationMs)} ms</span></li>`;
    })
    .join('');
  const missing = r.missingParts?.length ? `<ul class="small">${r.missingParts.map((m) => `<li>${esc(m)}</li>`).join('')}</ul>` : '';
  return `<tr id="${esc(r.id)}" class="st-${esc(r.status)}" data-filterable><td><code>${esc(r.id)}</code></td><td>${esc(r.title)}</td><td><span class="badge b-${esc(r.status)}">${esc(STATUS_LABEL[r.status] ?? r.status)}</span>${r.reason ? `<div class="small">${esc(r.reason)}</div>` : ''}${missing}</td><td>${checks ? `<ul class="checks">${checks}</ul>` : ''}</td></tr>`;
}

function countStatuses(rs: RequirementResult[]): Record<RequirementResult['status'], number> {
  const c: Record<RequirementResult['status'], number> = {
    passed: 0,
    failed: 0,
    partial: 0,
    skipped: 0,
    unverified: 0,
    not_run: 0,
    not_covered: 0,
    out_of_scope: 0,
  };
  for (const r of rs) c[r.status] = (c[r.status] ?? 0) + 1;
  return c;
}

function countsText(c: Record<RequirementResult['status'], number>): string {
  return (Object.keys(STATUS_LABEL) as RequirementResult['status'][])
    .filter((k) => k === 'passed' || k === 'failed' || c[k] > 0)
    .map((k) => `${c[k]} ${STATUS_LABEL[k]}`)
    .join(' · ');
}

function matrix(results: RunResults, anchors: Map<string, string>): string {
  if (results.requirements.length === 0) return '<p class="nodata">no requirements were evaluated in this run</p>';
  let out = '';
  for (const service of ['gate', 'pools'] as const) {
    const reqs = results.requirements.filter((r) => r.service === service);
    if (!reqs.length) continue;
    const bySection = new Map<string, RequirementResult[]>();
    for (const r of reqs) bySection.set(r.section, [...(bySection.get(r.section) ?? []), r]);
    out += `<h3>${service === 'gate' ? 'Gate' : 'Pools'} <span class="small">${esc(countsText(countStatuses(reqs)))}</span></h3>`;
    // As the spec reads, not as the results came.
    for (const [section, rs] of inSpecOrder(service, [...bySection], ([s]) => s)) {
      const c = countStatuses(rs);
      out += `<details class="section" data-rows${c.failed ? ' open' : ''}><summary><b>${esc(section)}</b> <span class="small">${esc(countsText(c))}</span>${c.failed ? ' <span class="badge b-failed">failures</span>' : ''}</summary>
<table class="matrix"><thead><tr><th>requirement</th><th>statement</th><th>status</th><th>checks</th></tr></thead><tbody>${rs.map((r) => requirementRow(r, anchors)).join('\n')}</tbody></table></details>`;
    }
  }
  return out;
}

/** Observations grouped by topic (a requirement id or a named behaviour), each with its count and distinct values. */
function observationGroups(results: RunResults): string {
  if (!results.observations.length) return '<p class="nodata">no observations in this run</p>';
  const groups = new Map<string, RunResults['observations']>();
  for (const o of results.observations) {
    const key = `${o.service}\u0000${o.topic}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  const sorted = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  return sorted
    .map(([key, os]) => {
      const [service, topic] = key.split('\u0000') as [string, string];
      const values = [...new Set(os.map((o) => show(o.value)))];
      const distinct = values.length;
      // One reading across every observation: show it in the summary line, so the list reads without opening each group.
      const only = distinct === 1 ? ` · <code>${esc(values[0]!.length > 80 ? `${values[0]!.slice(0, 80)}…` : values[0])}</code>` : '';
      const rows = os
        .map((o) => `<tr data-filterable><td>${esc(o.check ?? '')}</td><td><pre>${esc(show(o.value))}</pre></td><td>${esc(o.note ?? '')}</td></tr>`)
        .join('');
      return `<details class="section obs" data-rows><summary><code>${esc(topic)}</code> <span class="small">${esc(service)} · ${os.length} observation${os.length === 1 ? '' : 's'} · ${distinct} distinct value${distinct === 1 ? '' : 's'}${only}</span></summary><table class="obs"><thead><tr><th>check</th><th>value</th><th>note</th></tr></thead><tbody>${rows}</tbody></table></details>`;
    })
    .join('\n');
}

/** The same grouping key as the verdict's reasons (src/report/verdict.ts): a test checks the counts agree. */
function notAssertedReason(r: RequirementResult): string {
  if (r.status === 'partial') {
    const c = r.checks.find((x) => x.status !== 'passed');
    return `partial: ${c ? `${c.status.replace('_', ' ')}${c.reason ? ` — ${c.reason}` : ''}` : (r.reason ?? '')}`;
  }
  return `${r.status.replace('_', ' ')}: ${r.reason ?? 'no reason given'}`;
}

function notAsserted(results: RunResults): string {
  const reasons = results.summary.incompleteReasons ?? [];
  if (!reasons.length) return '<p class="nodata">every requirement in scope was asserted</p>';
  const ids = new Map<string, string[]>();
  for (const r of results.requirements) {
    if (r.status === 'passed' || r.status === 'failed' || r.status === 'out_of_scope') continue;
    const k = notAssertedReason(r);
    ids.set(k, [...(ids.get(k) ?? []), r.id]);
  }
  return `<ul class="reasons">${reasons
    .map((g) => {
      const list = ids.get(g.reason);
      // Ids only where this grouping matches the verdict's count exactly.
      const named =
        list && list.length === g.requirements
          ? ` <span class="small">${list.map((id) => `<a href="#${esc(id)}"><code>${esc(id)}</code></a>`).join(' ')}</span>`
          : '';
      return `<li data-filterable><b>${g.requirements}</b> — ${esc(g.reason)}${named}</li>`;
    })
    .join('')}</ul>`;
}

/** What this run did not cover, beyond depth: suite kinds it did not run, requirements --service, --grep, --scenario or --case left out. */
export function scopeNotes(results: RunResults): string[] {
  const scope = scopeOf(results);
  const kinds: readonly string[] = scope.kinds;
  if (!kinds.length) return [];
  const notes: string[] = [];
  const other = CATALOGUE.filter((r) => !kinds.includes(r.suite));
  if (other.length) {
    const names = [...new Set(other.map((r) => r.suite))].sort();
    notes.push(`${other.length} ${names.join(' and ')} requirements are not part of rampart ${results.command} (rampart certify runs every suite)`);
  }
  const present = new Set(results.requirements.map((r) => r.id));
  const inKinds = CATALOGUE.filter((r) => kinds.includes(r.suite));
  const filters = [
    ...(scope.grep ? [`--grep ${JSON.stringify(scope.grep)}`] : []),
    ...(scope.scenarios?.length ? [`--scenario ${scope.scenarios.join(' ')}`] : []),
    ...(scope.cases?.length ? [`--case ${scope.cases.join(' ')}`] : []),
  ].join(' ');
  for (const service of ['gate', 'pools'] as const) {
    const all = inKinds.filter((r) => r.service === service);
    const left = all.filter((r) => !present.has(r.id)).length;
    if (!all.length || !left || results.requirements.length === 0) continue;
    const name = service === 'gate' ? 'Gate' : 'pools';
    // Results written before the scope was recorded: the filter is read from what is missing, as it was then.
    const why = results.scope
      ? scope.service && scope.service !== service
        ? `--service ${scope.service}`
        : filters
      : left === all.length
        ? '--service'
        : '--grep';
    notes.push(
      left === all.length
        ? `${name}: not selected${why ? ` (${why})` : ''}`
        : `${name}: ${left} of ${all.length} requirements not selected${why ? ` (${why})` : ''}`,
    );
  }
  return notes;
}

/** The banner: the verdict computed by src/report/verdict.ts, never re-judged here. */
export function bannerOf(results: RunResults): { cls: string; label: string; detail: string } {
  const s = results.summary;
  const scale = timeScaleNote(s);
  const scope = `${results.command} at --depth ${results.depth}${scale ? `, ${scale}` : ''}${s.outOfScope ? `; ${s.outOfScope} requirements out of scope at this depth` : ''}`;
  const cls = s.verdict === 'CERTIFIED' ? 'v-ok' : s.verdict === 'PASSED' ? 'v-partial' : s.verdict === 'NOT CERTIFIED' ? 'v-bad' : 'v-neutral';
  return { cls, label: s.verdict, detail: `${s.verdictLine} — ${scope}` };
}

function bannerHtml(results: RunResults, night?: Night): string {
  const v = bannerOf(results);
  const s = results.summary;
  const runScope = scopeOf(results);
  const facts: [string, string][] = [
    [
      'scope',
      runScope.whole
        ? 'a whole run: rampart certify, every suite, nothing narrowed'
        : `a partial run (${runScope.partial}): only rampart certify, nothing narrowed, can be CERTIFIED`,
    ],
    [
      'depth',
      results.depth === 'full'
        ? '--depth full: every real-time window and the whole retry schedule'
        : '--depth quick: the long real-time windows need --depth full',
    ],
    ['time', timeScaleNote(s) ?? 'real time: the target declares no time scale'],
    ...(runScope.gates ? [['gates', gatesFact(runScope)] as [string, string]] : []),
    [
      'out of scope',
      [...(s.outOfScope ? [`${s.outOfScope} requirements that need --depth full`] : []), ...scopeNotes(results)].join('; ') ||
        'nothing: every requirement of the catalogue was in scope',
    ],
    ['target', `${results.profile.name} · rampart ${results.tool?.version ?? ''} · spec ${results.environment?.specVersion ?? '?'}`],
  ];
  const stop = results.interrupted
    ? `<p class="stop">Interrupted by ${esc(results.interrupted.signal)} at ${esc(results.interrupted.at)}: only what finished is reported.</p>`
    : results.error
      ? `<p class="stop">The run stopped: ${esc(results.error.message)} (exit ${esc(results.error.exitCode)})</p>`
      : '';
  return `<section id="verdict" class="verdict ${v.cls}"><div class="big">${esc(v.label)}</div><div class="line">${esc(s.verdictLine)}</div>${stop}${historyBanner(night)}
<dl class="scope">${facts.map(([k, t]) => `<dt>${esc(k)}</dt><dd>${esc(t)}</dd>`).join('')}</dl></section>`;
}

function specMapSection(results: RunResults): string {
  const status = new Map(results.requirements.map((r) => [r.id, r.status]));
  const map = buildSpecMap();
  return ['gate', 'pools']
    .map(
      (spec) =>
        `<details class="section"><summary><b>${spec === 'gate' ? 'Gate' : 'Pools'} spec</b></summary>${specMapHtml(map, spec as 'gate' | 'pools', (id) => status.get(id))}</details>`,
    )
    .join('\n');
}

function countsHtml(s: RunResults['summary']): string {
  const cell = (n: number | undefined, label: string, cls = '') => `<div${cls ? ` class="${cls}"` : ''}><b>${n ?? 0}</b>${esc(label)}</div>`;
  return `<div class="counts">${cell(s.passed, 'requirements passed')}${cell(s.failed, 'failed', s.failed ? 'c-bad' : '')}${cell(s.partial, 'partial')}${cell(s.skipped, 'skipped')}${cell(s.unverified, 'unverified')}${cell(s.notRun, 'not run')}${cell(s.notCovered, 'not covered')}${cell(s.outOfScope, 'out of scope')}<div><b>${s.checks?.passed ?? 0}/${s.checks?.failed ?? 0}/${(s.checks?.skipped ?? 0) + (s.checks?.unverified ?? 0) + (s.checks?.notRun ?? 0)}</b>checks passed/failed/not asserted</div>${s.requestsPerRequirement !== undefined ? `<div><b>${s.requestsPerRequirement}</b>requests per requirement</div>` : ''}</div>`;
}

function runDetails(results: RunResults): string {
  const urls = Object.entries(results.profile.baseUrls ?? {}).filter(([, u]) => u);
  return `<details class="section" id="run"><summary><b>Run details</b> <span class="small">${esc(`${results.runId} · ${results.startedAt} → ${results.finishedAt}`)}</span></summary><table class="meta">
<tr><th>target profile</th><td>${esc(results.profile.name)}</td></tr>
${urls.map(([k, u]) => `<tr><th>${esc(k)}</th><td><code>${esc(u)}</code></td></tr>`).join('\n')}
<tr><th>depth</th><td>${esc(results.depth)}</td></tr>
<tr><th>spec version</th><td>${esc(results.environment?.specVersion)}</td></tr>
<tr><th>run</th><td><code>${esc(results.runId)}</code> · ${esc(results.startedAt)} → ${esc(results.finishedAt)}${results.resumedFrom ? ` · resumed` : ''}</td></tr>
<tr><th>by</th><td>${esc(`${results.tool?.name ?? 'rampart'} ${results.tool?.version ?? ''} on ${results.environment?.host ?? '?'} (${results.environment?.platform ?? '?'}, node ${results.environment?.node ?? '?'})`)}</td></tr>
${results.plan ? `<tr><th>time</th><td>${esc(`lower bound ${results.plan.spentLowerBoundSeconds ?? results.plan.lowerBoundSeconds} s${results.plan.spentLowerBoundSeconds !== undefined ? ' (spent)' : ' (planned)'}`)}</td></tr>` : ''}
${results.target ? `<tr><th>target clock and round trip</th><td>${esc(describeTargetClock(results.target).replace(/^target: /, ''))}</td></tr>` : ''}
${results.summary.requests ? `<tr><th>requests</th><td>${esc(`Gate ${results.summary.requests.gate}, pools ${results.summary.requests.pools}`)}</td></tr>` : ''}
</table></details>`;
}

export function toHtml(input: RunResults, history: HistoryRecord[] = [], night?: Night): string {
  const results = redactDeep(input);
  // A trend only means something across runs of the same command against the same target.
  const comparable = history.filter((h) => h.profile === results.profile.name && h.command === results.command);
  const hist = comparable.some((h) => h.runId === results.runId) ? comparable : [...comparable, toHistoryRecord(results)];
  const v = bannerOf(results);
  const s = results.summary;
  const m = results.metrics ?? {};
  const failures = failureCards(results.checks);
  const failedCount = results.checks.filter((c) => c.status === 'failed').length;
  const obsTopics = new Set(results.observations.map((o) => `${o.service}\u0000${o.topic}`)).size;
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`rampart ${results.command} — ${v.label} — ${results.profile.name}`)}</title>
<style>${PAGE_CSS}${SPEC_MAP_CSS}${EXPLORATION_CSS}${RACES_CSS}${HISTORY_CSS}</style></head>
<body><main>
<h1>rampart ${esc(results.command)} report <span class="small">${esc(results.profile.name)} · ${esc(results.startedAt)}</span></h1>
${bannerHtml(results, night)}
${countsHtml(s)}
${runDetails(results)}
<nav><a href="#failures">failures (${failedCount})</a>${results.exploration ? `<a href="#exploration">exploration (${results.exploration.findings.length})</a>` : ''}${results.races ? `<a href="#races">races (${results.races.findings.length})</a>` : ''}<a href="#not-asserted">not asserted (${s.incompleteReasons?.length ?? 0} reasons)</a><a href="#matrix">requirements (${results.requirements.length})</a><a href="#observations">observations (${results.observations.length})</a><a href="#charts">charts</a><a href="#trend">trend</a><a href="#history">history${night ? ` (${night.group.runs.length} runs)` : ''}</a><a href="#specmap">spec map</a></nav>
<div id="filterbar" hidden><input id="filter" type="search" placeholder="filter failures, requirements and observations: an id, a check, any text" aria-label="filter"> <span id="filter-count" class="small"></span></div>
<h2 id="failures">Failures <span class="small">${failedCount ? `${failedCount} failed check${failedCount === 1 ? '' : 's'}: expected (−) against actual (+), and a command to replay each` : ''}</span></h2>
${failures.html}
${explorationSection(results)}
${racesSection(results)}
<h2 id="not-asserted">Not asserted, by reason <span class="small">what the profile or machine lacks</span></h2>
${notAsserted(results)}
<h2 id="matrix">Requirement matrix</h2>
<button type="button" data-toggle="open" hidden>expand all</button><button type="button" data-toggle="close" hidden>collapse all</button>
${matrix(results, failures.anchors)}
<h2 id="observations">Observations <span class="small">"not shown" behaviour and readings chosen: ${results.observations.length} in ${obsTopics} topic${obsTopics === 1 ? '' : 's'}</span></h2>
${observationGroups(results)}
<h2 id="charts">Charts</h2>
<h3>Latency per route group (k6)</h3>${latencyChart(m.latency)}
<h3>k6 web dashboards</h3>${k6DashboardLinks(m.k6Dashboards)}
<h3>Rate-limit boundary</h3>${rateLimitChart(m.rateLimits)}
<h3>Observed quote TTL</h3>${quoteTtlChart(m.quoteTtl)}
<h3>Webhook retry gaps against the schedule</h3>${retryGapChart(m.retryGaps)}
<h2 id="trend">Trend over the last runs</h2>
${trendChart(hist)}
<h2 id="history">History <span class="small">this run among the last runs of its target and scope, from the run store</span></h2>
${historySection(night)}
<h2 id="specmap">Spec coverage map</h2>
<p class="legend">Every sentence, list item and table row of both specs: tested (by the requirements named, coloured by their status in this run), not shown (left open by the spec: observed, never failed), not testable from outside (hover for why), or unaccounted.</p>
${specMapSection(results)}
</main><script>${PAGE_JS}</script></body></html>
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
  const { readNight } = await import('../history/recordNight.js');
  const out = join(dir, 'report.html');
  const html = toHtml(results, history, await readNight(results, dirname(dir)));
  const findings = scanText(html);
  if (findings.length) throw new Error(`secret scan: ${[...new Set(findings.map((f) => f.kind))].join(', ')} in report.html; not written`);
  writeFileSync(out, html);
  return out;
}
