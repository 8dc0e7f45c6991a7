// Exact decimal arithmetic for the pools reference: money and rates are
// decimal strings on the wire and never pass through floats here.
const SCALE = 18;
const ONE = 10n ** BigInt(SCALE);

export type Fixed = bigint;

const DECIMAL = /^\d+(\.\d+)?$/;

export function isDecimal(s: unknown): s is string {
  return typeof s === 'string' && DECIMAL.test(s) && s.length <= 40;
}

export function parse(s: string): Fixed {
  const neg = s.startsWith('-');
  const [i, f = ''] = (neg ? s.slice(1) : s).split('.');
  const v = BigInt(i!) * ONE + BigInt(f.padEnd(SCALE, '0').slice(0, SCALE) || '0');
  return neg ? -v : v;
}

/** Format with exactly `places` decimals, rounding toward zero. */
export function format(v: Fixed, places: number): string {
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const unit = 10n ** BigInt(SCALE - places);
  const q = abs / unit;
  const digits = q.toString().padStart(places + 1, '0');
  const out = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return neg && q !== 0n ? `-${out}` : out;
}

export function mul(a: Fixed, b: Fixed): Fixed {
  return (a * b) / ONE;
}

export function div(a: Fixed, b: Fixed): Fixed {
  return (a * ONE) / b;
}

/** Factor (1 − bps / 10 000). */
export function lessBps(v: Fixed, bps: number): Fixed {
  return (v * BigInt(10_000 - bps)) / 10_000n;
}

export const ZERO: Fixed = 0n;
