// What a run learns of a target's clock and network: plain data the client
// measures (src/client/targetClock.ts) and the reports, the doctor and the
// terminal show. Ground floor: imports nothing.

/** A span of the target's clock (ms since the epoch, on the target's clock). */
export interface TargetSpan {
  low: number;
  high: number;
}

export interface ClockEstimate {
  /** target − rampart, ms (the middle of what the answers allow). */
  offsetMs: number;
  /** Half the width of what the answers allow, ms: the offset is offsetMs ± this. */
  uncertaintyMs: number;
  /** Answers that carried a usable Date header. */
  samples: number;
}

export interface RoundTrip {
  /** Time from sending a request to its answer's headers, ms. */
  minMs: number;
  medianMs: number;
  p95Ms: number;
  /** p95 − min: how much one exchange's network time can differ from another's. */
  jitterMs: number;
  samples: number;
}

/** What a run reports of a target's clock and network, per service. */
export interface TargetClockReport {
  clock?: ClockEstimate;
  roundTrip?: RoundTrip;
}

/** "target clock: gate +2.0 s ± 0.08 s, round trip 205 ms (p95 260 ms); pools …" — for the terminal and doctor. */
export function describeTargetClock(t: { gate?: TargetClockReport; pools?: TargetClockReport }): string {
  const one = (name: string, r?: TargetClockReport) => {
    if (!r || (!r.clock && !r.roundTrip)) return undefined;
    const c = r.clock
      ? `${r.clock.offsetMs >= 0 ? '+' : '−'}${(Math.abs(r.clock.offsetMs) / 1000).toFixed(1)} s ± ${(r.clock.uncertaintyMs / 1000).toFixed(2)} s against rampart's clock`
      : 'clock unknown (no Date header)';
    const rt = r.roundTrip ? `, round trip ${r.roundTrip.medianMs} ms (p95 ${r.roundTrip.p95Ms} ms)` : '';
    return `${name} ${c}${rt}`;
  };
  const parts = [one('gate', t.gate), one('pools', t.pools)].filter(Boolean);
  return parts.length ? `target: ${parts.join('; ')}` : 'target: no answer seen, clock and round trip unknown';
}
