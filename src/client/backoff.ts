// Bounded randomized exponential backoff ("full jitter" over the upper half,
// so a retry never fires immediately yet clients do not retry in lockstep).

export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Delay before retry number `attempt` (1-based). Always within [cap/2, cap], cap = min(max, base·2^(attempt−1)). */
export function backoffDelayMs(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const n = Math.max(1, Math.min(attempt, 30));
  const cap = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (n - 1));
  return cap / 2 + random() * (cap / 2);
}

/** Retry-After (seconds or HTTP date) in ms, or undefined. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const d = Date.parse(v);
  return Number.isNaN(d) ? undefined : Math.max(0, d - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
