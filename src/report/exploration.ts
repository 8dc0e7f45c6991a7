// The report's Exploration section: what `rampart explore` ran (sequences, steps, requests, the seed that replays
// it), and each finding as its shrunk steps with the two answers of every step side by side — the target's and the
// oracle's — the rule it breaks, and its replay script.
import { esc } from './htmlEscape.js';
import type { ExchangeRecord, ExplorationRecord, FindingRecord, RunResults } from './results.js';

const answer = (xs: ExchangeRecord[]) =>
  xs.length
    ? xs
        .map(
          (x) =>
            `<div class="ans"><b>${esc(String(x.status ?? x.error ?? '—'))}</b> ${esc(`${x.method} ${pathOf(x.url)}`)}<pre>${esc(x.responseBody ?? '')}</pre></div>`,
        )
        .join('')
    : '<span class="small">no request</span>';

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

function findingHtml(f: FindingRecord, heading: string): string {
  const rows = f.steps
    .map(
      (s) =>
        `<tr${s.n === f.step ? ' class="diverged"' : ''}><td>${s.n}</td><td>${esc(s.label)}</td><td>${answer(s.target)}</td><td>${answer(s.oracle)}</td></tr>`,
    )
    .join('');
  return `<div class="finding" id="finding-${f.seed}">
<h3>${esc(heading)}: ${esc(f.what)}</h3>
<p>${f.requirement ? `Breaks <b>${esc(f.requirement)}</b>.` : '<b>No requirement of the catalogue names this</b> (a gap in the catalogue): it fails the run all the same.'} At step ${f.step} the target answered <code>${esc(JSON.stringify(f.target))}</code> where the oracle answered <code>${esc(JSON.stringify(f.oracle))}</code>. Shrunk from ${f.firstSeenSteps} to ${f.steps.length} step${f.steps.length === 1 ? '' : 's'} (${esc(f.family)}); ${rerunText(f)}. <code>rampart explore --seed ${f.seed}</code> replays the exploration (shrink path <code>${esc(f.path)}</code>).</p>
<table class="steps"><thead><tr><th>#</th><th>step</th><th>target</th><th>oracle</th></tr></thead><tbody>${rows}</tbody></table>
<details><summary>replay script (the target's side, ids and keys filled in from the steps before)${f.replay.env.length ? ` — set ${esc(f.replay.env.join(', '))}` : ''}</summary><pre>${esc(f.replay.script)}</pre>${f.replay.notes.length ? `<ul>${f.replay.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}</details>
</div>`;
}

/** How the finding's confirming re-run went, in words. */
function rerunText(f: FindingRecord): string {
  if (f.confirmed || f.rerun?.outcome === 'parted again') return 'it parted again when run once more on fresh objects';
  if (f.rerun?.outcome === 'not re-run') return `it could not be run once more (${esc(f.rerun.why ?? 'no reason given')}): the divergence in hand stands`;
  return 'its re-run reached the step and did not part: intermittent — its requirement unverified, the run INCOMPLETE';
}

/** Per family: what it walked, or why the profile leaves it out. */
function familiesHtml(e: ExplorationRecord): string {
  const rows = Object.entries(e.byFamily ?? {}).map(
    ([name, f]) =>
      `<tr><td>${esc(name)}</td><td>${esc(f.service)}</td>${
        f.leftOut ? `<td colspan="3">left out: ${esc(f.leftOut)}</td>` : `<td>${f.sequences}</td><td>${f.steps}</td><td>${f.requests}</td>`
      }</tr>`,
  );
  return rows.length
    ? `<table class="families"><thead><tr><th>family</th><th>service</th><th>sequences</th><th>steps</th><th>requests</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '';
}

export const EXPLORATION_CSS = `.finding table.steps{width:100%;border-collapse:collapse;table-layout:fixed}.finding td{vertical-align:top;border-top:1px solid #ddd;padding:4px}.finding td:first-child{width:2em}.finding td:nth-child(2){width:22%}.finding tr.diverged{background:#fde8e8}.finding .ans pre{max-height:12em;overflow:auto;white-space:pre-wrap;font-size:11px;margin:2px 0}table.families td,table.families th{padding:2px 8px;text-align:left}`;

export function explorationSection(results: Pick<RunResults, 'exploration'>): string {
  const e: ExplorationRecord | undefined = results.exploration;
  if (!e) return '';
  const head = `<p>${e.sequences} sequence${e.sequences === 1 ? '' : 's'} of documented operations (${Object.entries(e.families)
    .map(([f, n]) => `${esc(f)} ${n}`)
    .join(
      ', ',
    )}), ${e.steps} steps${e.judged ? `, ${e.judged.length} requirements judged` : ''}${e.transitions ? ` (${e.transitions} distinct transitions)` : ''}, ${e.spent} of ${e.budget} requests to the target${e.foundAfter !== undefined ? ` (the first divergence after ${e.foundAfter})` : ''}; each step applied to the target and to the oracle — ${esc(e.oracle)} — and compared on what the specs determine. Seed <code>${e.seed}</code> (<code>rampart explore --seed ${e.seed}</code> replays it).</p>${familiesHtml(e)}`;
  const body = [
    ...e.findings.map((f) => findingHtml(f, 'Finding')),
    ...(e.flaky ? [findingHtml(e.flaky, 'Intermittent divergence')] : []),
    ...(e.stopped ? [`<p><b>Stopped:</b> ${esc(e.stopped.why)}</p>`] : []),
    ...(e.unjudged ? [`<p><b>Judged nothing:</b> ${esc(e.unjudged)}</p>`] : []),
    ...(e.crash ? [`<p><b>The explorer failed:</b> <code>${esc(e.crash.split('\n')[0] ?? '')}</code></p>`] : []),
  ];
  return `<h2 id="exploration">Exploration <span class="small">${e.findings.length ? `${e.findings.length} finding` : 'no divergence'}</span></h2>${head}${body.join('') || '<p>No sequence parted.</p>'}`;
}
