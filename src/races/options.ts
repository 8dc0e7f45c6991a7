// The races options, checked before any traffic: a bad value is one line and exit 2.
import { EXIT, RunError } from '../exitCodes.js';

/** --budget N: requests the target may be sent (rounds per family are what it pays for). */
export function parseRaceBudget(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100_000)
    throw new RunError(`--budget ${raw}: give the requests the target may be sent, a whole number from 1 to 100000`, EXIT.usage);
  return n;
}

/** --times N: the replay of one family, its burst fired N times at once. */
export function parseTimes(raw: string | undefined, families: readonly string[] | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 200)
    throw new RunError(`--times ${raw}: give how many times to fire the burst, a whole number from 1 to 200`, EXIT.usage);
  if (families?.length !== 1) throw new RunError("--times replays one family: name it with --family (the finding's replay script does)", EXIT.usage);
  return n;
}
