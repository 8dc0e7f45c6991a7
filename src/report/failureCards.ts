// The failures of report.html, one card each: the rule that broke, the diff of
// expected and actual, the command that replays the failing request (with a
// copy button) and the steps before it, then the recorded exchanges.
import { changedSpan, diffable, lineDiff, type DiffLine } from './diff.js';
import { esc, fmt } from './htmlEscape.js';
import type { CheckFailure, CheckResult, ExchangeRecord } from './results.js';

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

const SIGN = { same: ' ', del: '-', add: '+' } as const;

function diffLineHtml(l: DiffLine, mark?: string): string {
  return `<span class="d-${l.op}"><span class="d-sign">${SIGN[l.op]}</span>${mark ?? esc(l.text)}</span>`;
}

/** Expected (−) against actual (+), line by line; within a changed block, each removed line paired with an added one marks where they differ. */
export function diffHtml(expected: string, actual: string): string {
  const lines = lineDiff(diffable(expected), diffable(actual));
  const marks = new Map<DiffLine, string>();
  for (let i = 0; i < lines.length;) {
    if (lines[i]!.op === 'same') {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j]!.op !== 'same') j++;
    const dels = lines.slice(i, j).filter((l) => l.op === 'del');
    const adds = lines.slice(i, j).filter((l) => l.op === 'add');
    if (dels.length === adds.length)
      dels.forEach((d, k) => {
        const s = changedSpan(d.text, adds[k]!.text);
        // Marking helps only where the two lines share a part; otherwise the whole line is the change.
        if (!s.prefix && !s.suffix) return;
        const marked = (mid: string) => `${esc(s.prefix)}<mark>${esc(mid)}</mark>${esc(s.suffix)}`;
        marks.set(d, marked(s.a));
        marks.set(adds[k]!, marked(s.b));
      });
    i = j;
  }
  const body = lines.map((l) => diffLineHtml(l, marks.get(l))).join('');
  return `<div class="diff"><div class="d-legend"><span class="d-del">− expected</span> <span class="d-add">+ actual</span></div><pre>${body}</pre></div>`;
}

function copyable(id: string, label: string, text: string): string {
  return `<div class="cmd-head"><b>${esc(label)}</b> <button type="button" class="copy" data-copy="${esc(id)}" hidden>copy</button></div><pre class="cmd" id="${esc(id)}">${esc(text)}</pre>`;
}

function reproBlock(r: NonNullable<CheckFailure['reproduce']>, id: string): string {
  const env = r.env.length
    ? `<p class="small">Set first: ${r.env.map((v) => `<code>${esc(v)}</code>`).join(', ')} — the command names secrets by variable, never by value.</p>`
    : '';
  const notes = r.notes.length ? `<ul class="small notes">${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '';
  const stepCount = r.steps ? (r.steps.match(/^# step \d+\//gm) ?? []).length : 0;
  const steps = r.steps
    ? `<details class="steps"><summary>the ${stepCount || ''} requests of this check up to the failure (for a stateful failure: replay them in order)</summary>${copyable(`${id}-steps`, 'steps', r.steps)}</details>`
    : '';
  return `<div class="repro">${copyable(`${id}-cmd`, 'Reproduce the failing request', r.command)}${env}${notes}${r.bodyFile ? `<p class="small">The body is in <code>${esc(r.bodyFile)}</code> next to this report.</p>` : ''}${steps}</div>`;
}

/** The requirement a failure is filed under: the one the failing assertion named, else the check's first. */
export function failedRequirement(c: CheckResult): string {
  return c.failure?.requirement ?? c.requirements[0] ?? '';
}

/** One card per failed check, grouped by the requirement that broke; `anchors` maps a check name to its card id. */
export function failureCards(checks: readonly CheckResult[]): { html: string; anchors: Map<string, string> } {
  const failed = checks.filter((c) => c.status === 'failed').sort((a, b) => failedRequirement(a).localeCompare(failedRequirement(b)));
  const anchors = new Map<string, string>();
  if (failed.length === 0) return { html: '<p class="nodata">no failures</p>', anchors };
  const cards = failed.map((c, i) => {
    const id = `failure-${i + 1}`;
    if (!anchors.has(c.name)) anchors.set(c.name, id);
    const f = c.failure;
    const req = failedRequirement(c);
    const others = c.requirements.filter((r) => r !== req);
    const where = [c.suite, c.file].filter(Boolean).join(' · ');
    const head = `<h3><code>${esc(req)}</code> ${esc(c.name)}</h3><p class="small">${esc(where)}${others.length ? ` · the check also names ${others.map((o) => esc(o)).join(', ')}` : ''}${f?.requestId ? ` · request id <code>${esc(f.requestId)}</code>` : ''}</p>`;
    if (!f) return `<article class="failure" id="${id}" data-filterable>${head}<p>failed (no detail recorded)</p></article>`;
    const diff = f.expected !== undefined || f.actual !== undefined ? diffHtml(f.expected ?? '', f.actual ?? '') : '';
    const repro = f.reproduce
      ? reproBlock(f.reproduce, id)
      : `<p class="small">No command to replay: ${f.transport ? 'the target gave no answer to replay' : 'this failure was not judged on one recorded request'}.</p>`;
    const exchanges = f.exchanges?.length
      ? `<details class="exchanges"><summary>${f.exchanges.length} recorded exchange(s)</summary>${f.exchanges.map(exchangeBlock).join('\n')}</details>`
      : '';
    return `<article class="failure" id="${id}" data-filterable>${head}<p class="msg">${esc(f.message)}</p>${diff}${repro}${exchanges}</article>`;
  });
  return { html: cards.join('\n'), anchors };
}
