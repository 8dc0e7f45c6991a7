// Command-line overrides of the profile's harness settings (rampart's own limits).
import type { Profile } from '../profile/schema.js';
import { EXIT, RunError } from '../exitCodes.js';

export interface HarnessFlags {
  requestTimeout?: string;
  maxBodyBytes?: string;
  rateLimitBudget?: string;
}

function positive(flag: string, value: string, integer: boolean): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new RunError(`${flag} ${value} is not a positive ${integer ? 'integer' : 'number'} — e.g. ${flag} ${integer ? '16777216' : '30'}`, EXIT.usage);
  return n;
}

/** The profile with --request-timeout <s>, --max-body-bytes <n> and --rate-limit-budget <s> applied over harness.*. */
export function applyHarnessFlags(profile: Profile, flags: HarnessFlags): Profile {
  const h = { ...profile.harness };
  if (flags.requestTimeout !== undefined) h.requestTimeoutMs = Math.round(positive('--request-timeout', flags.requestTimeout, false) * 1000);
  if (flags.maxBodyBytes !== undefined) h.maxBodyBytes = positive('--max-body-bytes', flags.maxBodyBytes, true);
  if (flags.rateLimitBudget !== undefined) h.rateLimitBudgetSeconds = positive('--rate-limit-budget', flags.rateLimitBudget, false);
  return { ...profile, harness: h };
}
