// The gates file: performance thresholds for `rampart load` that CI can
// tighten (the package's fixtures/gates.json is the default). Gates looser than
// the defaults never certify: the run records the gates it used and what in
// them is looser (src/report/verdict.ts turns that into "PASSED — custom gates").
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EXIT, RunError } from '../exitCodes.js';
import { packagePath } from '../packageRoot.js';

const ms = z.record(z.string(), z.number().positive());

/**
 * Gates relative to a baseline run (`--baseline last-certified|RUN_ID`), per k6 scenario and route group: this run's
 * p95 (p99) at most `p95Ratio` (`p99Ratio`) times the baseline's — and never failed for less than `minDeltaMs` more,
 * the noise of a loopback run — judged only where both runs have the samples the percentile needs. Without
 * --baseline they judge nothing and the absolute gates alone stand, as before.
 */
export const RelativeGates = z
  .object({
    $comment: z.string().optional(),
    p95Ratio: z.number().min(1).max(10).default(1.2),
    p99Ratio: z.number().min(1).max(10).optional(),
    minDeltaMs: z.number().min(0).max(10_000).default(50),
  })
  .strict();
export type RelativeGates = z.infer<typeof RelativeGates>;

export const Gates = z
  .object({
    $comment: z.string().optional(),
    errorRate: z.number().min(0).max(1),
    p95Ms: ms,
    p99Ms: ms,
    quoteTtlRate: z.number().positive().max(50).default(2),
    quoteTtlDurationSeconds: z.number().positive().max(600).default(20),
    quoteTtlVus: z.number().int().positive().max(500).default(60),
    raceVus: z.number().int().min(2).max(200).default(16),
    smokeDurationSeconds: z.number().positive().max(900).default(30),
    soakDurationSeconds: z.number().positive().max(7200).default(600),
    relative: RelativeGates.default({ p95Ratio: 1.2, minDeltaMs: 50 }),
  })
  .strict();
export type Gates = z.infer<typeof Gates>;

/** rampart's own gates file: found in the package, whatever folder rampart runs in. */
export const DEFAULT_GATES_FILE = packagePath('fixtures', 'gates.json');

export function loadGates(file: string = DEFAULT_GATES_FILE): Gates {
  return readGates(file).gates;
}

/** The file's text and what it says, validated: one line naming the file and the bad field when it cannot be used. */
function readGates(file: string): { text: string; raw: unknown; gates: Gates } {
  let raw: unknown;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    raw = JSON.parse(text);
  } catch (e) {
    throw new RunError(
      `cannot read the gates file ${file}: ${(e as Error).message} — pass --gates with a JSON file shaped like rampart's fixtures/gates.json`,
      EXIT.usage,
    );
  }
  const parsed = Gates.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new RunError(`gates file ${file} is invalid: ${issues}`, EXIT.usage);
  }
  return { text, raw, gates: parsed.data };
}

/**
 * What in `gates` asks less than `defaults`, one phrase each ("p95Ms.read60 700 ms > 300 ms"): a latency
 * threshold larger or dropped, a higher error rate, or less load than the defaults judge (fewer VUs, a lower
 * rate, a shorter run: less traffic proves less). Empty when every value is the default's or stricter; a
 * threshold the defaults do not have (a new route group) only adds to them.
 */
export function loosenedGates(gates: Gates, defaults: Gates): string[] {
  const out: string[] = [];
  if (gates.errorRate > defaults.errorRate) out.push(`errorRate ${gates.errorRate} > ${defaults.errorRate}`);
  for (const table of ['p95Ms', 'p99Ms'] as const)
    for (const [group, limit] of Object.entries(defaults[table])) {
      const mine = gates[table][group];
      if (mine === undefined) out.push(`${table}.${group} dropped (default ${limit} ms)`);
      else if (mine > limit) out.push(`${table}.${group} ${mine} ms > ${limit} ms`);
    }
  for (const k of LOAD_SHAPE) if (gates[k] < defaults[k]) out.push(`${k} ${gates[k]} < ${defaults[k]}`);
  // Relative gates judge only a run with --baseline; a file asking less of them is looser all the same.
  const r = gates.relative;
  const d = defaults.relative;
  if (r.p95Ratio > d.p95Ratio) out.push(`relative.p95Ratio ${r.p95Ratio} > ${d.p95Ratio}`);
  if (d.p99Ratio !== undefined && (r.p99Ratio === undefined || r.p99Ratio > d.p99Ratio))
    out.push(r.p99Ratio === undefined ? `relative.p99Ratio dropped (default ${d.p99Ratio})` : `relative.p99Ratio ${r.p99Ratio} > ${d.p99Ratio}`);
  if (r.minDeltaMs > d.minDeltaMs) out.push(`relative.minDeltaMs ${r.minDeltaMs} ms > ${d.minDeltaMs} ms`);
  return out;
}

/** The load a scenario puts on the target: lower than the default, it proves less. */
const LOAD_SHAPE = ['quoteTtlRate', 'quoteTtlDurationSeconds', 'quoteTtlVus', 'raceVus', 'smokeDurationSeconds', 'soakDurationSeconds'] as const;

/** The gates a run used, as results.json (scope.gates) and the certificate record them. */
export interface GatesUsed {
  /** The file as given to --gates, or rampart's own (fixtures/gates.json) when none was. */
  file: string;
  /** sha256 of the file's bytes. */
  sha256: string;
  /** What the file says (its JSON, as written). */
  content: unknown;
  /** What in it is looser than rampart's defaults (src/load/gates.ts loosenedGates); empty: the defaults or stricter. */
  looser: string[];
}

/** The gates of a run: `file` (--gates) or rampart's defaults, and how they compare with the defaults. */
export function gatesUsed(file?: string): GatesUsed {
  const defaults = readGates(DEFAULT_GATES_FILE);
  const mine = file ? readGates(file) : defaults;
  return {
    file: file ?? 'fixtures/gates.json (rampart default)',
    sha256: createHash('sha256').update(mine.text).digest('hex'),
    content: mine.raw,
    looser: loosenedGates(mine.gates, defaults.gates),
  };
}
