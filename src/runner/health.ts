// The target's health across checks: consecutive requests that got no answer
// at all (refused, reset, timed out) mean the target went down. A blip — an
// answer in between — resets the count; only a run of failures stops the run.
import type { TransportError } from '../client/types.js';

const OUTAGE_KINDS = new Set<TransportError['kind']>(['refused', 'timeout', 'reset', 'unreachable', 'tls', 'body-timeout']);

export class Health {
  private streak = 0;
  private streakStartedAt = 0;
  private lastAnswerAt = 0;
  private lastAnswer = '';
  private down = false;

  constructor(
    /** Consecutive transport failures that mean an outage (profile harness.outageAfter). */
    private readonly threshold: number,
    private readonly onDown: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  answered(what = ''): void {
    this.streak = 0;
    this.lastAnswerAt = this.now();
    if (what) this.lastAnswer = what;
  }

  failed(e: TransportError): void {
    // Only "no answer at all" counts; a body too large or a rate-limited key is an answer of sorts.
    if (this.down || !OUTAGE_KINDS.has(e.kind)) return;
    if (this.streak++ === 0) this.streakStartedAt = this.now();
    if (this.streak >= this.threshold) {
      this.down = true;
      const since = new Date(this.streakStartedAt).toISOString();
      const last = this.lastAnswerAt
        ? `the last answer came at ${new Date(this.lastAnswerAt).toISOString()}${this.lastAnswer ? ` (${this.lastAnswer})` : ''}`
        : 'no request was ever answered';
      this.onDown(
        `${this.streak} requests in a row got no answer since ${since} (last: ${e.message}); ${last} — check that the target is up, then rerun (or --resume the run)`,
      );
    }
  }

  /** When the failure streak that ended the run began (ms), if it did. */
  get outageSince(): number | undefined {
    return this.down ? this.streakStartedAt : undefined;
  }
}
