// The load flags as values: --segments, --seed, --scenario (bad values are usage errors, exit 2).
import { EXIT, RunError } from '../exitCodes.js';
import type { ScenarioName } from '../../scenarios/lib/requirements.js';
import { DEFAULT_SCENARIOS, MAX_SEGMENTS, SCENARIO_NAMES } from './run.js';

export function parseSegments(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_SEGMENTS)
    throw new RunError(`--segments takes a whole number from 1 to ${MAX_SEGMENTS}, not "${raw}"`, EXIT.usage);
  return n;
}

export function parseSeed(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new RunError(`--seed takes a whole number (up to 9 digits), not "${raw}"`, EXIT.usage);
  return Number(raw);
}

export function scenarioNames(raw: string[] | undefined): ScenarioName[] {
  const unknown = (raw ?? []).filter((n) => !(SCENARIO_NAMES as string[]).includes(n));
  if (unknown.length) throw new RunError(`unknown scenario ${unknown.join(', ')} — choose from ${SCENARIO_NAMES.join(', ')}`, EXIT.usage);
  return (raw?.length ? raw : DEFAULT_SCENARIOS) as ScenarioName[];
}

/** `rampart load --emit k6-operator DIR`: write the bundle, run nothing. */
