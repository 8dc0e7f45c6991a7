// junit.xml for CI: one <testsuite> per suite kind × service, one <testcase> per check. With the run store's
// history, each failure says whether it is new, intermittent or still failing, and the verdict's properties list them.
import { describeFailure, failureOf, nightClasses, type Night } from '../history/night.js';
import type { CheckResult, RaceFindingRecord, RunResults } from './results.js';
import { gatesFact, scopeOf } from './verdict.js';

// XML 1.0 forbids most control characters even when escaped.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlEscape(s: unknown): string {
  return String(s ?? '')
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function serviceOfCheck(c: Pick<CheckResult, 'requirements'>): 'gate' | 'pools' | 'general' {
  const services = new Set(c.requirements.map((r) => (r.startsWith('POOLS-') ? 'pools' : r.startsWith('GATE-') ? 'gate' : 'general')));
  if (services.size === 1) return [...services][0] as 'gate' | 'pools' | 'general';
  return 'general';
}

function secs(ms: number): string {
  return (Math.max(0, ms || 0) / 1000).toFixed(3);
}

/** A race finding's burst, for the failure's text: each request's send and answer times and answer, and the replay command. */
function raceLines(f: RaceFindingRecord | undefined): string[] {
  if (!f) return [];
  return [
    `race ${f.family}, burst ${f.round} (seed ${f.seed}), first request sent ${f.startedAt}:`,
    ...f.burst.map(
      (r, i) =>
        `  ${i + 1}. ${r.label}: sent ${r.sentAs + 1}. at +${r.sentMs} ms, ${r.answeredMs !== undefined ? `answered +${r.answeredMs} ms` : 'no answer'} → ${r.exchange?.status ?? r.noAnswer ?? 'no answer'} (${r.effect})`,
    ),
    `closest serial order ${f.closest.order.map((i) => i + 1).join(' → ') || '(none applied)'}: parts at ${f.closest.request !== undefined ? `request ${f.closest.request + 1}` : 'the reads after'} on ${f.closest.what}`,
    `replay: ${f.replay.script.split('\n').find((l) => l.startsWith('npx rampart races')) ?? ''}`,
  ];
}

function testcase(c: CheckResult, night?: Night, race?: RaceFindingRecord): string {
  const standing = failureOf(night, c);
  const history = standing && night ? describeFailure(standing, night.group.runs) : undefined;
  const name = c.requirements.length ? `${c.name} [${c.requirements.join(', ')}]` : c.name;
  const classname = `${c.suite}.${serviceOfCheck(c)}${c.file ? '.' + c.file.replace(/\.[a-z]+$/i, '').replace(/[\\/]/g, '.') : ''}`;
  const props = [
    ...c.requirements.map((r) => `        <property name="requirement" value="${xmlEscape(r)}"/>`),
    ...(history ? [`        <property name="history" value="${xmlEscape(history)}"/>`] : []),
    ...(race
      ? [`        <property name="races.family" value="${xmlEscape(race.family)}"/>`, `        <property name="races.seed" value="${race.seed}"/>`]
      : []),
  ].join('\n');
  let body = props ? `      <properties>\n${props}\n      </properties>\n` : '';
  if (c.status === 'failed') {
    const f = c.failure;
    const lines = [
      history ? `history: ${history}` : '',
      f?.requirement ? `requirement: ${f.requirement}` : '',
      f?.expected !== undefined ? `expected: ${f.expected}` : '',
      f?.actual !== undefined ? `actual:   ${f.actual}` : '',
      f?.requestId ? `request id: ${f.requestId}` : '',
      ...(f?.exchanges ?? []).map((x) => `${x.method} ${x.url} → ${x.status ?? x.error ?? 'no response'}${x.requestId ? ` (request id ${x.requestId})` : ''}`),
      ...raceLines(race),
    ].filter(Boolean);
    const msg = [
      f?.message ?? 'failed',
      f?.expected !== undefined ? `expected ${f.expected}` : '',
      f?.actual !== undefined ? `actual ${f.actual}` : '',
      f?.requestId ? `request id ${f.requestId}` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    body += `      <failure message="${xmlEscape(msg)}" type="AssertionError">${xmlEscape(lines.join('\n'))}</failure>\n`;
  } else if (c.status !== 'passed') {
    // Skipped, unverified and not run are never passes in JUnit either.
    body += `      <skipped message="${xmlEscape(`${c.status.replace('_', ' ')}: ${c.reason ?? ''}`)}"/>\n`;
  }
  return `    <testcase name="${xmlEscape(name)}" classname="${xmlEscape(classname)}" time="${secs(c.durationMs)}"${body ? `>\n${body}    </testcase>` : '/>'}`;
}

export function toJunit(results: RunResults, night?: Night): string {
  const groups = new Map<string, CheckResult[]>();
  const races = new Map((results.races?.findings ?? []).map((f) => [f.check, f]));
  for (const c of results.checks) {
    const key = `${c.suite}.${serviceOfCheck(c)}`;
    const list = groups.get(key) ?? [];
    list.push(c);
    groups.set(key, list);
  }
  // The run's verdict, as src/report/verdict.ts judged it (a failed performance gate is a failed testcase too).
  const scope = scopeOf(results);
  const verdictProps = [
    ['verdict', results.summary.verdict],
    ['verdictLine', results.summary.verdictLine],
    ['scope', scope.whole ? 'whole run' : `partial run (${scope.partial})`],
    ['depth', results.depth],
    ...(scope.gates ? [['gates', gatesFact(scope)]] : []),
    ...historyProps(night),
  ]
    .map(([k, v]) => `      <property name="${k}" value="${xmlEscape(v)}"/>`)
    .join('\n');
  const suites: string[] = [
    `  <testsuite name="rampart.verdict" tests="0" failures="0" errors="0" skipped="0" time="0.000">\n    <properties>\n${verdictProps}\n    </properties>\n  </testsuite>`,
  ];
  for (const [key, checks] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const failures = checks.filter((c) => c.status === 'failed').length;
    const skipped = checks.filter((c) => c.status !== 'passed' && c.status !== 'failed').length;
    const time = checks.reduce((t, c) => t + (c.durationMs || 0), 0);
    suites.push(
      `  <testsuite name="${xmlEscape(key)}" tests="${checks.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${secs(time)}" timestamp="${xmlEscape(results.startedAt.replace(/Z$/, ''))}">\n${checks.map((c) => testcase(c, night, c.suite === 'races' ? races.get(c.name) : undefined)).join('\n')}\n  </testsuite>`,
    );
  }
  if (results.error) {
    // A run that stopped (unreachable target, bad profile) must fail CI visibly, not look like zero tests.
    suites.push(
      `  <testsuite name="rampart.run" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n    <testcase name="run ${xmlEscape(results.command)}" classname="rampart.run" time="0.000">\n      <error message="${xmlEscape(results.error.message)}" type="exit ${results.error.exitCode}"/>\n    </testcase>\n  </testsuite>`,
    );
  }
  const total = results.checks.length + (results.error ? 1 : 0);
  const failures = results.checks.filter((c) => c.status === 'failed').length;
  const skipped = results.checks.filter((c) => c.status !== 'passed' && c.status !== 'failed').length;
  const time = Date.parse(results.finishedAt) - Date.parse(results.startedAt) || 0;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="rampart ${xmlEscape(results.command)} ${xmlEscape(results.runId)}: ${xmlEscape(results.summary.verdict)}" tests="${total}" failures="${failures}" errors="${results.error ? 1 : 0}" skipped="${skipped}" time="${secs(time)}">\n` +
    suites.join('\n') +
    (suites.length ? '\n' : '') +
    `</testsuites>\n`
  );
}

/** The verdict's history: which failures are new, which intermittent, which still failing, and against what. */
function historyProps(night: Night | undefined): string[][] {
  if (!night) return [];
  const c = nightClasses(night);
  return [
    ['history', `${night.at} earlier run${night.at === 1 ? '' : 's'} of this target and scope in ${night.store}`],
    ['newFailures', c.new.join(', ')],
    ['intermittentFailures', c.intermittent.join(', ')],
    ['stillFailing', c['still failing'].join(', ')],
  ];
}
