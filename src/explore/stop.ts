// How an exploration ends when it cannot go on: the same stops every kind ends on, told apart so the run ends as it
// ends every other kind (the report written, exit 3 or 5, a check not run or skipped), never as a defect of explore.
import { HourWindowFull } from '../client/pacer.js';
import { RouteRefusesEveryRequest } from '../client/routeRefusal.js';
import { TransportError } from '../client/types.js';

/**
 * Why an exploration cannot go on, as every kind stops on it: the run's own stop (a signal, another kind's outage),
 * the target giving no answer after the spec's retries (exit 3), rate-limiting past the retries and the run's budget
 * (exit 5), a key's hour window full at --depth quick (skipped, as a check's request is), or a route proven to
 * refuse every paced request (the Limits rule it breaks fails).
 */
export type StopKind = 'interrupted' | 'outage' | 'rate-limited' | 'hour-window' | 'route-refuses';

export class Stopped extends Error {
  constructor(
    readonly kind: StopKind,
    readonly why: string,
    /** The refusal that proved a route refuses every request (kind route-refuses). */
    readonly refusal?: RouteRefusesEveryRequest,
  ) {
    super(why);
    this.name = 'Stopped';
  }
}

/** The stop a request of the target ended in, or undefined for anything else (rampart's own defect). */
export function stopOf(e: unknown, signal?: AbortSignal): Stopped | undefined {
  if (e instanceof Stopped) return e;
  if (signal?.aborted) return new Stopped('interrupted', String(signal.reason ?? 'the run stopped'));
  if (e instanceof TransportError)
    return e.kind === 'rate-limited' ? new Stopped('rate-limited', e.message) : new Stopped('outage', `the target gave no answer: ${e.message}`);
  if (e instanceof HourWindowFull) return new Stopped('hour-window', e.message);
  if (e instanceof RouteRefusesEveryRequest) return new Stopped('route-refuses', e.message, e);
  return undefined;
}
