// GitHub Actions: a markdown job summary (appended to $GITHUB_STEP_SUMMARY)
// and one `::error` workflow command per failed check. Everything is redacted
// first: job summaries and logs are as public as the repository. With the run store's history, the summary says
// which failures are new, which intermittent and which still failing.
import { appendFileSync, readFileSync } from 'node:fs';
import { describeFailure, failureOf, nightLine, type Night } from '../history/night.js';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redact, redactDeep } from '../secrets/index.js';
import { bannerOf } from './html.js';
import type { CheckResult, RunResults } from './results.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Failures listed in the summary at most; GitHub caps a step summary at 1 MiB. */
const MAX_SUMMARY_ROWS = 200;
const CELL_MAX = 300;

/** A markdown table cell: HTML, pipes and backticks escaped, line breaks kept as <br>, long text cut. */
function cell(s: string | undefined): string {
  if (!s) return '';
  const t = s.length > CELL_MAX ? `${s.slice(0, CELL_MAX)}…` : s;
  return t
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\\/g, '\\\\')
    .replace(/[|`]/g, (m) => `\\${m}`)
    .replace(/\r?\n/g, '<br>');
}

const code = (s: string | undefined) => (s ? `\`${s.replace(/`/g, "'")}\`` : '');

function failedChecks(results: RunResults): CheckResult[] {
  return results.checks.filter((c) => c.status === 'failed');
}

function requirementOf(c: CheckResult): string {
  return c.failure?.requirement ?? c.requirements.join(', ');
}

/** The job summary: verdict, counts, failures table. */
export function githubStepSummary(input: RunResults, night?: Night): string {
  const results = redactDeep(input);
  const v = bannerOf(results);
  const s = results.summary;
  const icon = s.verdict === 'CERTIFIED' ? '✅' : s.verdict === 'PASSED' ? '☑️' : s.verdict === 'NOT CERTIFIED' ? '❌' : '⚠️';
  const lines = [
    `## ${icon} rampart ${results.command}: ${v.label}`,
    '',
    `${v.detail}. Profile **${results.profile.name}**, depth ${results.depth}, spec ${results.environment.specVersion}, rampart ${results.tool.version}, run \`${results.runId}\` (${results.startedAt} → ${results.finishedAt}).`,
    '',
    ...historyLines(night),
    '| passed | failed | partial | skipped | unverified | not run | not covered | out of scope |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.passed} | ${s.failed} | ${s.partial} | ${s.skipped} | ${s.unverified} | ${s.notRun} | ${s.notCovered} | ${s.outOfScope} |`,
    '',
    `Checks: ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped, ${s.checks.unverified} unverified, ${s.checks.notRun} not run.`,
    ...(s.incompleteReasons.length && s.verdict !== 'CERTIFIED' && s.verdict !== 'PASSED'
      ? ['', '**Not asserted, by reason:**', '', ...s.incompleteReasons.slice(0, 10).map((g) => `- ${g.requirements} — ${cell(g.reason)}`)]
      : []),
  ];
  if (results.error) lines.push('', `**The run stopped:** ${cell(results.error.message)} (exit ${results.error.exitCode})`);
  const e = results.exploration;
  if (e) {
    lines.push(
      '',
      `### Exploration`,
      '',
      `${e.sequences} sequences, ${e.steps} steps, ${e.spent} of ${e.budget} requests, seed \`${e.seed}\`: ${e.findings.length ? 'a divergence' : 'no divergence'}.`,
    );
    for (const f of e.findings)
      lines.push(
        '',
        `**${cell(f.requirement ?? 'no requirement names it (a gap in the catalogue)')}** — ${cell(f.what)}: the target answered ${code(JSON.stringify(f.target))}, the oracle ${code(JSON.stringify(f.oracle))}, after ${f.steps.length} steps:`,
        '',
        ...f.steps.map((st) => `${st.n}. ${cell(st.label)}${st.n === f.step ? ' ← parts here' : ''}`),
      );
  }
  const failures = failedChecks(results);
  if (failures.length) {
    const told = !!night;
    lines.push(
      '',
      `### Failures (${failures.length})`,
      '',
      `| requirement | check |${told ? ' history |' : ''} expected | actual | request id |`,
      `|---|---|${told ? '---|' : ''}---|---|---|`,
    );
    for (const c of failures.slice(0, MAX_SUMMARY_ROWS)) {
      const f = c.failure;
      const standing = failureOf(night, c);
      const history = told ? ` ${cell(standing && night ? describeFailure(standing, night.group.runs) : '')} |` : '';
      lines.push(`| ${code(requirementOf(c))} | ${cell(c.name)} |${history} ${cell(f?.expected ?? f?.message)} | ${cell(f?.actual)} | ${code(f?.requestId)} |`);
    }
    if (failures.length > MAX_SUMMARY_ROWS) lines.push('', `…and ${failures.length - MAX_SUMMARY_ROWS} more: see report.html.`);
  }
  return lines.join('\n') + '\n';
}

/** Appends the summary to $GITHUB_STEP_SUMMARY when it is set; returns the file written, if any. */
export function writeGithubStepSummary(results: RunResults, env: NodeJS.ProcessEnv = process.env, night?: Night): string | undefined {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return undefined;
  appendFileSync(file, githubStepSummary(results, night) + '\n');
  return file;
}

/** The night against the runs before it: its failures told apart (new, intermittent, still failing), nothing retried. */
function historyLines(night: Night | undefined): string[] {
  if (!night) return [];
  const line = nightLine(night);
  return [
    `**History** (${night.at + 1} run${night.at ? 's' : ''} of this target and scope in the run store): ${line ? cell(line) : 'no failure tonight'}.`,
    '',
  ];
}

/** Workflow-command data: %, CR and LF are escaped (GitHub's toolkit escapeData). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow-command property values: also ':' and ',' (GitHub's toolkit escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The 1-based line where a check's name appears in its file (as a string literal), if findable. */
export function lineOfCheck(file: string, name: string, root = REPO_ROOT): number | undefined {
  let text: string;
  try {
    text = readFileSync(isAbsolute(file) ? file : join(root, file), 'utf8');
  } catch {
    return undefined;
  }
  for (const needle of [name, name.replace(/'/g, "\\'"), name.replace(/"/g, '\\"')]) {
    const at = text.indexOf(needle);
    if (at >= 0) return text.slice(0, at).split('\n').length;
  }
  return undefined;
}

/** One `::error file=…,line=…,title=…::message` line per failed check. */
export function githubAnnotations(input: RunResults, opts: { root?: string; night?: Night } = {}): string[] {
  const root = opts.root ?? REPO_ROOT;
  return failedChecks(input).map((raw) => {
    const c = redactDeep(raw);
    const props: string[] = [];
    if (raw.file) {
      const rel = isAbsolute(raw.file) ? relative(root, raw.file) : raw.file;
      props.push(`file=${escapeProperty(rel.split(sep).join('/'))}`);
      const line = lineOfCheck(raw.file, raw.name, root);
      if (line) props.push(`line=${line}`);
    }
    props.push(`title=${escapeProperty(`rampart ${requirementOf(c)}: ${c.name}`)}`);
    const f = c.failure;
    const standing = failureOf(opts.night, raw);
    const message = [
      f?.message ?? 'failed',
      standing && opts.night ? `history: ${describeFailure(standing, opts.night.group.runs)}` : undefined,
      f?.expected !== undefined ? `expected: ${f.expected}` : undefined,
      f?.actual !== undefined ? `actual: ${f.actual}` : undefined,
      f?.requestId ? `request id: ${f.requestId}` : undefined,
    ]
      .filter((x) => x !== undefined)
      .join('\n');
    return `::error ${props.join(',')}::${escapeData(redact(message))}`;
  });
}
