// The explore options, checked before any traffic: a bad value is one line and exit 2.
import { EXIT, RunError } from '../exitCodes.js';

/** --budget N: a whole number of requests, at least enough for one step and its re-run. */
export function parseBudget(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 20 || n > 100_000)
    throw new RunError(`--budget ${raw}: give the requests the target may be sent, a whole number from 20 to 100000`, EXIT.usage);
  return n;
}

/** --seed N: fast-check's seed, a 32-bit integer. */
export function parseSeed(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || Math.abs(n) > 2 ** 31 - 1) throw new RunError(`--seed ${raw}: give the seed the report names, a whole number`, EXIT.usage);
  return n;
}
