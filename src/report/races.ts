// The report's Races section: what `rampart races` fired (families, bursts, the serial orders replayed on the
// oracle, the seed that replays the orders of sending), and each finding as a developer acts on it — the steps
// before the burst, a timeline of the burst (each request from its send to its answer, in the order it was sent),
// every answer beside the closest serial order's on the oracle, the reads after, where that order parts, the rule
// broken, and the replay script that fires the burst N times in parallel.
import { pathOf } from './exploration.js';
import { esc } from './htmlEscape.js';
import type { ExchangeRecord, RaceFindingRecord, RaceRequestRecord, RacesRecord, RaceStepRecord, RunResults } from './results.js';

const answer = (x: ExchangeRecord | undefined, none = 'no answer') =>
  x
    ? `<div class="ans"><b>${esc(String(x.status ?? '—'))}</b> ${esc(`${x.method} ${pathOf(x.url)}`)}<pre>${esc(x.responseBody ?? '')}</pre></div>`
    : `<span class="small">${esc(none)}</span>`;

const EFFECT_COLOUR: Record<RaceRequestRecord['effect'], string> = { applied: '#2f6fb0', maybe: '#b07b2f', refused: '#888' };

/** The burst on one time axis: a bar per request from its send to its answer (open-ended: no answer), in sending order. */
export function burstTimeline(burst: readonly RaceRequestRecord[]): string {
  const end = Math.max(1, ...burst.map((r) => r.answeredMs ?? r.sentMs));
  const width = 560;
  const row = 18;
  const x = (ms: number) => 150 + (ms / end) * (width - 160);
  const rows = [...burst]
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.sentAs - b.r.sentAs)
    .map(({ r, i }, k) => {
      const y = 4 + k * row;
      const to = r.answeredMs ?? end;
      const label = `${i + 1}. ${r.exchange?.status ?? 'no answer'} (${r.effect})`;
      return `<text x="0" y="${y + 11}" font-size="11">${esc(label)}</text><rect x="${x(r.sentMs).toFixed(1)}" y="${y}" width="${Math.max(2, x(to) - x(r.sentMs)).toFixed(1)}" height="12" fill="${EFFECT_COLOUR[r.effect]}"${r.answeredMs === undefined ? ' fill-opacity="0.35"' : ''}><title>${esc(`${r.label}: sent at +${r.sentMs} ms, ${r.answeredMs !== undefined ? `answered at +${r.answeredMs} ms` : `no answer (${r.noAnswer ?? ''})`}`)}</title></rect>`;
    });
  const h = 8 + burst.length * row + 14;
  return `<svg class="timeline" role="img" aria-label="the burst's requests from send to answer" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}">${rows.join('')}<text x="150" y="${h - 2}" font-size="10">0 ms</text><text x="${width - 60}" y="${h - 2}" font-size="10">${esc(`${Math.round(end * 10) / 10} ms`)}</text></svg>`;
}

const steps = (xs: readonly RaceStepRecord[]) =>
  xs.length ? `<ol class="steps">${xs.map((s) => `<li>${esc(s.label)} ${answer(s.exchange)}</li>`).join('')}</ol>` : '<p class="small">none</p>';

function findingHtml(f: RaceFindingRecord): string {
  const c = f.closest;
  const oracleOf = new Map(c.oracleAnswers.map((a) => [a.request, a.exchange]));
  const rows = f.burst
    .map((r, i) => {
      const at = c.order.indexOf(i);
      return `<tr${c.request === i ? ' class="diverged"' : ''}><td>${i + 1}</td><td>${esc(r.label)}<br><span class="small">sent ${r.sentAs + 1}${r.sentAs === 0 ? 'st' : 'th'}, +${r.sentMs} ms → ${r.answeredMs !== undefined ? `+${r.answeredMs} ms` : 'no answer'} · ${r.effect}</span></td><td>${answer(r.exchange, r.noAnswer ?? 'no answer')}</td><td>${at >= 0 ? `<span class="small">${at + 1}. in the order</span>${answer(oracleOf.get(i))}` : '<span class="small">not applied in this order</span>'}</td></tr>`;
    })
    .join('');
  const reading = Object.keys(c.reading).length
    ? ` (the oracle reading ${esc(
        Object.entries(c.reading)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', '),
      )})`
    : '';
  return `<div class="finding race" id="race-${esc(f.family)}-${f.round}">
<h3>${esc(f.family)}, burst ${f.round}: ${esc(f.what)}</h3>
<p>Breaks <b>${esc(f.requirement ?? 'no named rule')}</b>. No serial order that keeps real time explains the answers and the reads after (${f.tried} orders tried on fresh oracle worlds). The closest, <code>${c.order.map((i) => i + 1).join(' → ') || 'none applied'}</code>${reading}, matched ${c.matched} step${c.matched === 1 ? '' : 's'} and parts at ${c.request !== undefined ? `request ${c.request + 1}` : 'the reads after the burst'} on ${esc(c.what)}: the target <code>${esc(JSON.stringify(c.target))}</code>, the oracle <code>${esc(JSON.stringify(c.oracle))}</code>. First request sent ${esc(f.startedAt)}; seed <code>${f.seed}</code>.</p>
<h4>The steps before the burst</h4>${steps(f.steps)}
<h4>The burst</h4>${burstTimeline(f.burst)}
<table class="steps"><thead><tr><th>#</th><th>request</th><th>target</th><th>oracle, closest order</th></tr></thead><tbody>${rows}</tbody></table>
<h4>Read after the burst</h4><table class="steps"><thead><tr><th>target</th><th>oracle, closest order</th></tr></thead><tbody>${f.after
    .map(
      (a, k) =>
        `<tr${c.request === undefined ? ' class="diverged"' : ''}><td>${esc(a.label)} ${answer(a.exchange)}</td><td>${answer(c.oracleAfter[k]?.exchange)}</td></tr>`,
    )
    .join('')}</tbody></table>
<details><summary>replay script (fires the burst N times in parallel and says how often the finding showed)${f.replay.env.length ? ` — set ${esc(f.replay.env.join(', '))}` : ''}</summary><pre>${esc(f.replay.script)}</pre>${f.replay.notes.length ? `<ul>${f.replay.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}</details>
</div>`;
}

function familiesHtml(r: RacesRecord): string {
  const rows = Object.entries(r.families).map(
    ([id, f]) =>
      `<tr><td>${esc(id)}</td><td>${esc(f.service)}</td><td>${esc(f.status.replace('_', ' '))}</td><td>${f.rounds}</td><td>${f.explained}</td><td>${f.requests}</td><td>${esc(f.reason ?? '')}</td></tr>`,
  );
  return rows.length
    ? `<table class="families"><thead><tr><th>family</th><th>service</th><th>status</th><th>bursts</th><th>explained</th><th>requests</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '';
}

export const RACES_CSS = `svg.timeline{display:block;margin:4px 0}.finding.race h4{margin:10px 0 4px}.finding ol.steps{margin:0;padding-left:1.4em}.finding ol.steps .ans pre{max-height:8em;overflow:auto;white-space:pre-wrap;font-size:11px;margin:2px 0}`;

export function racesSection(results: Pick<RunResults, 'races'>): string {
  const r = results.races;
  if (!r) return '';
  const head = `<p>${r.bursts} burst${r.bursts === 1 ? '' : 's'} of concurrent documented requests over ${Object.keys(r.families).length} families (${r.rounds} each), sent at once in a shuffled order of sending; each judged against ${esc(r.oracle)}: ${r.ordersTried} serial orders replayed. Seed <code>${r.seed}</code> (<code>rampart races --seed ${r.seed}</code> replays the orders of sending).</p>${familiesHtml(r)}`;
  return `<h2 id="races">Races <span class="small">${r.findings.length ? `${r.findings.length} burst${r.findings.length === 1 ? '' : 's'} no serial order explains` : 'every burst explained'}</span></h2>${head}${r.findings.map(findingHtml).join('') || '<p>Every burst was explained by a serial order that keeps real time.</p>'}`;
}
