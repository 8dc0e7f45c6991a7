// `rampart report --compare A B`: what changed between two runs, new failures first.
import type { RequirementResult, RequirementStatus, RunResults } from './results.js';

export interface RequirementChange {
  id: string;
  service: 'gate' | 'pools';
  title: string;
  from?: RequirementStatus;
  to?: RequirementStatus;
  /** The failure message or skip reason in run B, when there is one. */
  detail?: string;
}

export interface RunComparison {
  a: { runId: string; startedAt: string; profile: string };
  b: { runId: string; startedAt: string; profile: string };
  newFailures: RequirementChange[];
  fixed: RequirementChange[];
  newlySkipped: RequirementChange[];
  newlyCovered: RequirementChange[];
  removed: RequirementChange[];
  added: RequirementChange[];
  summaryDelta: { passed: number; failed: number; skipped: number; notCovered: number };
  /** Run-level errors (unreachable target, bad profile): a run that stopped has no requirement results to compare. */
  errors: { a?: string; b?: string };
}

function detailOf(r: RequirementResult): string | undefined {
  const failed = r.checks.find((c) => c.status === 'failed');
  if (failed) return `${failed.name}: ${failed.failure?.message ?? 'failed'}`;
  if (r.status === 'skipped') return r.reason ?? r.checks.find((c) => c.reason)?.reason;
  return r.reason;
}

export function compareRuns(a: RunResults, b: RunResults): RunComparison {
  const before = new Map(a.requirements.map((r) => [r.id, r]));
  const after = new Map(b.requirements.map((r) => [r.id, r]));
  const change = (r: RequirementResult, from?: RequirementStatus, to?: RequirementStatus): RequirementChange => ({
    id: r.id,
    service: r.service,
    title: r.title,
    from,
    to,
    detail: to ? detailOf(r) : undefined,
  });
  const out: RunComparison = {
    a: { runId: a.runId, startedAt: a.startedAt, profile: a.profile.name },
    b: { runId: b.runId, startedAt: b.startedAt, profile: b.profile.name },
    newFailures: [],
    fixed: [],
    newlySkipped: [],
    newlyCovered: [],
    removed: [],
    added: [],
    summaryDelta: {
      passed: b.summary.passed - a.summary.passed,
      failed: b.summary.failed - a.summary.failed,
      skipped: b.summary.skipped - a.summary.skipped,
      notCovered: b.summary.notCovered - a.summary.notCovered,
    },
    errors: { a: a.error?.message, b: b.error?.message },
  };
  for (const [id, rb] of after) {
    const ra = before.get(id);
    if (!ra) {
      out.added.push(change(rb, undefined, rb.status));
      // A requirement that is new and already failing is a new failure too.
      if (rb.status === 'failed') out.newFailures.push(change(rb, undefined, rb.status));
      continue;
    }
    if (ra.status === rb.status) continue;
    const c = change(rb, ra.status, rb.status);
    if (rb.status === 'failed') out.newFailures.push(c);
    else if (ra.status === 'failed' && rb.status === 'passed') out.fixed.push(c);
    if (rb.status === 'skipped') out.newlySkipped.push(c);
    if (ra.status === 'not_covered' && rb.status !== 'not_covered') out.newlyCovered.push(c);
  }
  for (const [id, ra] of before) if (!after.has(id)) out.removed.push(change(ra, ra.status, undefined));
  for (const list of [out.newFailures, out.fixed, out.newlySkipped, out.newlyCovered, out.removed, out.added]) list.sort((x, y) => x.id.localeCompare(y.id));
  return out;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

export function formatComparison(diff: RunComparison): string {
  const lines: string[] = [`comparing ${diff.a.runId} (${diff.a.profile}) → ${diff.b.runId} (${diff.b.profile})`];
  if (diff.errors.b) lines.push(`run ${diff.b.runId} stopped: ${diff.errors.b}`);
  if (diff.errors.a) lines.push(`run ${diff.a.runId} stopped: ${diff.errors.a}`);
  const d = diff.summaryDelta;
  lines.push(`requirements: passed ${signed(d.passed)}, failed ${signed(d.failed)}, skipped ${signed(d.skipped)}, not covered ${signed(d.notCovered)}`);
  const block = (title: string, items: RequirementChange[]) => {
    if (!items.length) return;
    lines.push('', `${title} (${items.length}):`);
    for (const c of items) lines.push(`  ${c.id}  ${c.from ?? '—'} → ${c.to ?? '—'}  ${c.title}${c.detail ? `\n      ${c.detail}` : ''}`);
  };
  block('NEW FAILURES', diff.newFailures);
  block('fixed', diff.fixed);
  block('newly skipped', diff.newlySkipped);
  block('newly covered', diff.newlyCovered);
  block('added requirements', diff.added);
  block('removed requirements', diff.removed);
  if ([diff.newFailures, diff.fixed, diff.newlySkipped, diff.newlyCovered, diff.added, diff.removed].every((l) => l.length === 0))
    lines.push('', 'no requirement changed status');
  return lines.join('\n');
}
