// Capability helpers shared by the capabilities and eligibility suites.
import { randomInt } from 'node:crypto';
import type { GateActor } from '../../src/needs/define.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { expect2xx } from '../expect.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const TRIES = 5;

/**
 * An asset symbol in the usual form (five capital letters) that the target's
 * assets list does not name: an unknown symbol, not a malformed one.
 */
export async function unlistedSymbol(t: CheckTools, actor: GateActor, requirement: RequirementId): Promise<string> {
  const ex = expect2xx(t, await actor.client.get('/capabilities/assets'), requirement, 'GET /capabilities/assets (to pick a symbol it does not name)');
  const listed = new Set(((ex.json?.data ?? []) as { symbol?: unknown }[]).map((a) => String(a?.symbol ?? '').toUpperCase()));
  for (let i = 0; i < TRIES; i++) {
    const s = Array.from({ length: 5 }, () => LETTERS[randomInt(LETTERS.length)]).join('');
    if (!listed.has(s)) return s;
  }
  return t.unverified(`no five-letter symbol outside the assets list was found in ${TRIES} tries`);
}
