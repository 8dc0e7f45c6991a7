// `rampart history`: the run store read back — per requirement over the last runs of one target and scope a row of
// statuses, what is new since the last passing run, what flipped, which rules are intermittent, p95 per route group
// over time (--json, --since, --profile, --last) — and `rampart history prune --keep 90d`.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { redact } from '../../secrets/index.js';
import { EXIT, RunError } from '../../exitCodes.js';

/** "90d", "12h", "2w" → milliseconds; undefined when it is not such an age. */
export function ageMs(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(h|d|w)$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * { h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as 'h' | 'd' | 'w'];
}

/** --since: an age back from now (14d) or a date (2026-11-01, or a full ISO time). */
export function sinceOf(text: string | undefined, now = Date.now()): string | undefined {
  if (text === undefined) return undefined;
  const age = ageMs(text);
  if (age !== undefined) return new Date(now - age).toISOString();
  const t = Date.parse(text);
  if (!Number.isFinite(t)) throw new RunError(`--since ${text}: give an age (14d, 12h, 2w) or a date (2026-11-01)`, EXIT.usage);
  return new Date(t).toISOString();
}

/** --profile: a profile file (its runs' target, by hash), "embedded" (the embedded target), or a profile's name. */
async function targetOf(profile: string | undefined): Promise<{ targetKey?: string; targetName?: string }> {
  if (profile === undefined) return {};
  const { profileSha256 } = await import('../resume.js');
  if (profile === 'embedded') return { targetKey: `sha256:${profileSha256(undefined, undefined)}` };
  if (existsSync(profile)) return { targetKey: `sha256:${profileSha256(profile, undefined)}` };
  return { targetName: profile };
}

async function withStore<T>(
  opts: { reportsDir: string; history?: string },
  fn: (store: import('../../history/store.js').HistoryStore) => Promise<T>,
): Promise<T> {
  const { historyUrlOf, openHistoryStore } = await import('../../history/store.js');
  let store;
  try {
    store = await openHistoryStore({ reportsDir: opts.reportsDir, url: historyUrlOf(opts.history) });
    await store.prepare(opts.reportsDir);
  } catch (e) {
    await store?.close();
    throw new RunError(redact(`the history store cannot be used: ${(e as Error).message}`), EXIT.usage);
  }
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

const storeOptions = (c: Command) =>
  c
    .option('--reports-dir <dir>', 'the reports folder whose history.db to read (the SQLite store)', 'reports')
    .option('--history <url>', 'a PostgreSQL store (postgres://…; default: RAMPART_HISTORY_URL, else <reports-dir>/history.db)');

export function registerHistory(program: Command): void {
  const history = storeOptions(
    program
      .command('history')
      .description(
        'the run store: per requirement the statuses of the last runs of one target and scope, what is new since the last passing run, what flipped, which rules are intermittent, p95 per route group over time',
      )
      .option('--json', 'print it as JSON: runs (oldest first), requirements (statuses in run order, intermittent), new, flipped, intermittent, p95')
      .option('--since <when>', 'only runs since an age (14d, 12h, 2w) or a date')
      .option('--profile <profile>', "the target: a profile file, 'embedded', or a profile's name (default: the newest run's target)")
      .option('--last <n>', 'the newest n runs', '30'),
  ).action(async (opts: { reportsDir: string; history?: string; json?: boolean; since?: string; profile?: string; last: string }) => {
    const last = Number(opts.last);
    if (!Number.isInteger(last) || last < 1) throw new RunError(`--last ${opts.last}: give a whole number of runs ≥ 1`, EXIT.usage);
    const since = sinceOf(opts.since);
    const target = await targetOf(opts.profile);
    const { historyView, formatHistory } = await import('../../history/view.js');
    const view = await withStore(opts, (store) => historyView(store, { ...target, since, last }));
    process.stdout.write(redact(opts.json ? JSON.stringify(view, null, 2) : formatHistory(view).join('\n')) + '\n');
  });

  // --reports-dir and --history are the history command's own (read with the subcommand's: optsWithGlobals).
  history
    .command('prune')
    .description('remove runs older than an age from the store, with everything recorded of them')
    .requiredOption('--keep <age>', 'keep runs of the last age: 90d, 12h, 2w')
    .action(async (_: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<{ reportsDir: string; history?: string; keep: string }>();
      const age = ageMs(opts.keep);
      if (age === undefined) throw new RunError(`--keep ${opts.keep}: give an age such as 90d, 12h or 2w`, EXIT.usage);
      const before = new Date(Date.now() - age).toISOString();
      const removed = await withStore(opts, (store) => store.prune(before));
      process.stdout.write(`pruned ${removed} run${removed === 1 ? '' : 's'} started before ${before}\n`);
    });
}
