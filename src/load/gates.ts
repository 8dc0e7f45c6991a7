// The gates file: performance thresholds for `rampart load` that CI can
// tighten (the package's fixtures/gates.json is the default).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EXIT, RunError } from '../exitCodes.js';
import { packagePath } from '../packageRoot.js';

const ms = z.record(z.string(), z.number().positive());

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
  })
  .strict();
export type Gates = z.infer<typeof Gates>;

/** rampart's own gates file: found in the package, whatever folder rampart runs in. */
export const DEFAULT_GATES_FILE = packagePath('fixtures', 'gates.json');

export function loadGates(file: string = DEFAULT_GATES_FILE): Gates {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
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
  return parsed.data;
}
