// Timestamp grammars (src/model/schemas/timestamps.ts): RFC 3339 for Gate,
// ISO 8601 date and time with a designator for pools — strict where Date.parse
// is not.
import { describe, expect, it } from 'vitest';
import { IsoTimestamp, Timestamp } from '../src/model/schemas/common.js';
import { parseIso8601DateTime, parseRfc3339 } from '../src/model/schemas/timestamps.js';

describe('RFC 3339 (Gate)', () => {
  it.each([
    ['2026-12-01T10:00:00Z', Date.UTC(2026, 11, 1, 10)],
    ['2026-12-01t10:00:00z', Date.UTC(2026, 11, 1, 10)],
    ['2026-12-01T10:00:00.123Z', Date.UTC(2026, 11, 1, 10, 0, 0, 123)],
    ['2026-12-01T11:30:00+01:30', Date.UTC(2026, 11, 1, 10)],
    ['2026-12-01T05:00:00-05:00', Date.UTC(2026, 11, 1, 10)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2016-12-31T23:59:60Z', Date.UTC(2016, 11, 31, 23, 59, 59, 999)],
  ])('%s is RFC 3339', (s, ms) => {
    expect(parseRfc3339(s)).toBe(ms);
    expect(Timestamp.safeParse(s).success).toBe(true);
  });

  it.each([
    'Tue, 01 Dec 2026 10:00:00 GMT',
    '2026-12-01 10:00:00',
    '2026-12-01 10:00:00Z',
    '2026-12-01T10:00:00',
    '2026-12-01T10:00Z',
    '2026-12-01',
    '20261201T100000Z',
    '2026-13-01T10:00:00Z',
    '2026-02-30T10:00:00Z',
    '2025-02-29T10:00:00Z',
    '2026-12-01T24:00:00Z',
    '2026-12-01T10:00:00+0100',
    '2026-12-01T10:00:00+25:00',
    '1764583200',
    '',
  ])('%j is not RFC 3339 (Date.parse reads some of these)', (s) => {
    expect(parseRfc3339(s)).toBeNull();
    expect(Timestamp.safeParse(s).success).toBe(false);
  });
});

describe('ISO 8601 date and time (pools)', () => {
  it.each([
    ['2026-12-01T10:00:00Z', Date.UTC(2026, 11, 1, 10)],
    ['2026-12-01T10:00:00.5+00:00', Date.UTC(2026, 11, 1, 10, 0, 0, 500)],
    ['2026-12-01T10:00:00,5Z', Date.UTC(2026, 11, 1, 10, 0, 0, 500)],
    ['2026-12-01T11:00+01', Date.UTC(2026, 11, 1, 10)],
    ['20261201T100000Z', Date.UTC(2026, 11, 1, 10)],
    ['20261201T1130+0130', Date.UTC(2026, 11, 1, 10)],
  ])('%s is ISO 8601', (s, ms) => {
    expect(parseIso8601DateTime(s)).toBe(ms);
    expect(IsoTimestamp.safeParse(s).success).toBe(true);
  });

  it.each(['Tue, 01 Dec 2026 10:00:00 GMT', '2026-12-01 10:00:00', '2026-12-01T10:00:00', '2026-12-01', '2026-12-01T25:00:00Z', '2026-12-01T10:00:00.123'])(
    '%j is not an ISO 8601 date and time with a designator',
    (s) => {
      expect(parseIso8601DateTime(s)).toBeNull();
      expect(IsoTimestamp.safeParse(s).success).toBe(false);
    },
  );
});
