// The run recorded in its store at the end of writing it, and read back against the runs before it (night.ts). A
// store that cannot take the record (a lock held too long, a server gone since the run began) costs the run its
// history, never its reports or its verdict: the reports are written without it, and the terminal says why.
import { existsSync } from 'node:fs';
import { redact } from '../secrets/index.js';
import type { RunResults } from '../report/results.js';
import { nightOf, type Night } from './night.js';
import type { RunContext } from './record.js';
import { historyUrlOf, openHistoryStore, sqlitePathOf, type HistoryStore } from './store.js';

/** The store a run is written into: an open one (the CLI opened it before the run), the default one, or none. */
export type RunHistoryOption = false | { store: HistoryStore; context?: RunContext };

export async function recordNight(safe: RunResults, opts: { reportsDir: string; runDir: string; history?: RunHistoryOption }): Promise<Night | undefined> {
  if (opts.history === false) return undefined;
  let store = opts.history?.store;
  const owned = !store;
  try {
    if (!store) {
      store = await openHistoryStore({ reportsDir: opts.reportsDir, url: historyUrlOf(undefined) });
      await store.prepare(opts.reportsDir);
    }
    const ctx: RunContext = { ...opts.history?.context, runDir: opts.runDir };
    await store.record(safe, ctx);
    return await nightOf(store, safe, { ...ctx, reportsDir: opts.reportsDir });
  } catch (e) {
    process.stderr.write(
      redact(
        `rampart: history: the run was not recorded in ${store?.where ?? sqlitePathOf(opts.reportsDir)} (${(e as Error).message}); its reports are written without its history`,
      ) + '\n',
    );
    return undefined;
  } finally {
    if (owned) await store?.close();
  }
}

/** A written run read back from its store (rebuilding its report): none when there is no store or it lacks the run. */
export async function readNight(results: RunResults, reportsDir: string): Promise<Night | undefined> {
  let store: HistoryStore | undefined;
  try {
    const url = historyUrlOf(undefined);
    if (!url && !existsSync(sqlitePathOf(reportsDir))) return undefined;
    store = await openHistoryStore({ reportsDir, url });
    return await nightOf(store, results, { reportsDir });
  } catch {
    return undefined;
  } finally {
    await store?.close();
  }
}
