// The CLI's exit codes (a fixed contract; the README lists them).
export const EXIT = {
  ok: 0,
  checkFailed: 1,
  usage: 2,
  unreachable: 3,
  refusedForSafety: 4,
  /** A defect of rampart itself (the report is still written; please file it). */
  internal: 70,
} as const;

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
