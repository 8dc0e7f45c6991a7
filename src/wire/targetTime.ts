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
  /** Samples the estimate stands on (answers with a Date header, or objects the target stamped). */
  samples: number;
}

/**
 * One source of the target's time, kept apart from the other: `date` (the Date header of its answers) or
 * `stamps` (the creation times of objects it had just made, bracketed by the request's send and answer).
 */
export interface ClockSourceReport extends ClockEstimate {
  /** steady: one clock holds the samples (outliers aside); jumped: the clock stepped, or no clock holds two thirds of them; unsettled: too few to tell. */
  state: 'steady' | 'jumped' | 'unsettled';
  /** Samples discarded: their interval does not meet the one most samples share. */
  outliers: number;
  /** A step of the clock: samples agreeing with each other at `byMs` from the most (a run of them in a row, or a third of all). */
  jump?: { byMs: number; samples: number };
}

export interface RoundTrip {
  /** Time from sending a request to its answer's headers, ms. */
  minMs: number;
  medianMs: number;
  p95Ms: number;
  /** The round trip 99 answers in 100 beat: a target's stalls (a busy process, a pause) show here before the p95. */
  p99Ms?: number;
  /** p95 − min: how much one exchange's network time can differ from another's. */
  jitterMs: number;
  samples: number;
}

/** What a run reports of a target's clock and network, per service. */
export interface TargetClockReport {
  /** The estimate the time rules were judged on (absent when neither source gave a steady one). */
  clock?: ClockEstimate;
  /** Which source(s) `clock` stands on: both when they agree (their intersection), else the stamps. */
  basis?: 'stamps' | 'date' | 'stamps+date';
  date?: ClockSourceReport;
  stamps?: ClockSourceReport;
  /** Both sources steady: whether what they allow overlaps. */
  agree?: boolean;
  /** Answers seen, and how many carried no Date header (RFC 9110 §6.6.1: an origin server with a clock sends one). */
  answers?: number;
  missingDate?: number;
  roundTrip?: RoundTrip;
}

const secs = (ms: number) => `${ms >= 0 ? '+' : '−'}${(Math.abs(ms) / 1000).toFixed(1)} s`;
const pm = (e: ClockEstimate) => `${secs(e.offsetMs)} ± ${(e.uncertaintyMs / 1000).toFixed(2)} s`;

function describeSource(name: string, unit: string, s?: ClockSourceReport): string {
  if (!s) return `${name}: none`;
  const n = `${s.samples} ${unit}${s.samples === 1 ? '' : 's'}`;
  const dropped = s.outliers ? `, ${s.outliers} discarded` : '';
  if (s.state === 'jumped')
    return `${name} JUMPED${s.jump ? ` by ${secs(s.jump.byMs)} (${s.jump.samples} agree with each other, not with the most)` : ' (no one clock holds two thirds of them)'} (${n})`;
  return `${name} ${pm(s)}${s.state === 'unsettled' ? ' unsettled' : ''} (${n}${dropped})`;
}

/** The two sources side by side, their agreement, and the answers without a Date header. */
function describeSources(r: TargetClockReport): string {
  const parts = [describeSource('stamps', 'object', r.stamps), describeSource('Date', 'answer', r.date)];
  if (r.agree === true) parts.push('they agree');
  if (r.agree === false) parts.push(`they DISAGREE: judged on the stamps`);
  if (r.missingDate) parts.push(`${r.missingDate} of ${r.answers ?? '?'} answers without a Date header`);
  return parts.join('; ');
}

/**
 * "target: gate +2.0 s ± 0.01 s against rampart's clock (stamps +2.0 s ± 0.01 s (12 objects); Date +2.0 s ± 0.26 s
 * (300 answers, 1 discarded); they agree), round trip 205 ms (p95 260 ms); pools …" — for the terminal, report and doctor.
 */
export function describeTargetClock(t: { gate?: TargetClockReport; pools?: TargetClockReport }): string {
  const one = (name: string, r?: TargetClockReport) => {
    if (!r || (!r.clock && !r.roundTrip && !r.date && !r.stamps)) return undefined;
    const c = r.clock ? `${pm(r.clock)} against rampart's clock` : 'clock unknown';
    const rt = r.roundTrip ? `, round trip ${r.roundTrip.medianMs} ms (p95 ${r.roundTrip.p95Ms} ms)` : '';
    return `${name} ${c} (${describeSources(r)})${rt}`;
  };
  const parts = [one('gate', t.gate), one('pools', t.pools)].filter(Boolean);
  return parts.length ? `target: ${parts.join('; ')}` : 'target: no answer seen, clock and round trip unknown';
}
