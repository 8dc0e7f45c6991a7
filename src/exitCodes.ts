// Exit codes of every rampart command (a fixed contract; README and docs/ci.md
// list them), and the run-level error that ends a run with one of them. Ground
// floor: imports nothing.
export const EXIT = {
  /** CERTIFIED: every requirement in scope passed (or INCOMPLETE without --fail-incomplete). */
  ok: 0,
  /** NOT CERTIFIED: a check failed (a requirement, or a performance gate). */
  checkFailed: 1,
  /** Usage or profile error (the message names the file and the bad field). */
  usage: 2,
  /** The target is unreachable, stopped answering mid-run (an outage), or answers something that is not the API. */
  unreachable: 3,
  /** Refused for safety: live keys or production base URLs for load or chaos without --allow-live. */
  refusedForSafety: 4,
  /** Rate limited by the target: every key paused (Retry-After) for longer than the budget. */
  rateLimited: 5,
  /** INCOMPLETE with --fail-incomplete: nothing failed, but requirements in scope were not all asserted. */
  incomplete: 6,
  /** A defect of rampart itself (the report is still written; please file it). */
  internal: 70,
  /** INTERRUPTED by SIGINT (Ctrl-C): the report of what finished is written. */
  interrupted: 130,
  /** INTERRUPTED by SIGTERM (a CI time limit): the report of what finished is written. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A run-level error: one line for the user, and the exit code it ends with. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'RunError';
  }
}
