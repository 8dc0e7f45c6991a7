// Timestamp grammars, parsed strictly. Date.parse accepts far more than either
// spec allows ("Tue, 01 Dec 2026 10:00:00 GMT", "2026-12-01 10:00:00" read as
// local time), so a target answering those would pass a Date.parse check.
// - Gate: "ISO 8601 / RFC 3339" — RFC 3339 section 5.6 date-time (a profile of
//   ISO 8601): full-date "T" full-time, seconds required, a fraction optional,
//   the offset ("Z" or ±hh:mm) required. "T" and "Z" may be lower case (5.6,
//   NOTE); the space the same NOTE permits "for readability" is not ISO 8601,
//   and the Gate text names both, so it is refused.
// - Pools: "ISO 8601" — a complete calendar date and time of day, extended
//   (2026-12-01T10:00:00Z) or basic (20261201T100000Z) format, minutes or
//   seconds precision with an optional decimal fraction (dot or comma), and a
//   UTC designator or offset. ISO 8601 also has local times without a
//   designator, but those name no instant: an API timestamp without one cannot
//   be ordered or compared, so it is refused too.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const ISO_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?([.,]\d+)?(Z|[+-]\d{2}(?::?\d{2})?)$/;
const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?([.,]\d+)?(Z|[+-]\d{2}(?:\d{2})?)$/;

const daysIn = (y: number, m: number) => [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

/** Epoch ms of validated fields, or null when a field is out of range. A leap second (:60) counts as :59.999. */
function toMs(y: number, mo: number, d: number, h: number, mi: number, s: number, fraction: string | undefined, offset: string): number | null {
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 60) return null;
  let offsetMin = 0;
  if (!/^[Zz]$/.test(offset)) {
    const digits = offset.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMin = (offset[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const frac = fraction ? Number(`0.${fraction.slice(1)}`) * 1000 : 0;
  const base = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59)) + (s === 60 ? 999 : Math.floor(frac));
  return base - offsetMin * 60_000;
}

/** Epoch ms of an RFC 3339 date-time, or null when the string is not one. */
export function parseRfc3339(s: string): number | null {
  const m = RFC3339.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, fraction, offset] = m;
  return toMs(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(sec), fraction, offset!);
}

/** Epoch ms of an ISO 8601 complete date and time with a designator (extended or basic format), or null. */
export function parseIso8601DateTime(s: string): number | null {
  const m = ISO_EXTENDED.exec(s) ?? ISO_BASIC.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, fraction, offset] = m;
  // A fraction belongs to the last unit written: of a minute when seconds are left out.
  const seconds = sec === undefined ? (fraction ? Number(`0.${fraction.slice(1)}`) * 60 : 0) : Number(sec);
  return toMs(Number(y), Number(mo), Number(d), Number(h), Number(mi), Math.floor(seconds), sec === undefined ? undefined : fraction, offset!);
}
