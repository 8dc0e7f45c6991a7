// The mixed traffic's rate (scenarios/lib/trafficRate.ts): half of every window a traffic key meets, and on a key
// the run's checks used already (one key, conformance then load), half of what they left of its hour window.
import { describe, expect, it } from 'vitest';
import { GATE_RATE_WINDOWS, ROUTE_GROUP_FIRST_WINDOW } from '../src/model/limits.js';
import { smokeIterations, trafficPerMinute, type TrafficConfig } from '../scenarios/lib/trafficRate.js';

const limits = {
  ...GATE_RATE_WINDOWS,
  routeFirst: { write10: ROUTE_GROUP_FIRST_WINDOW.write10, write30: ROUTE_GROUP_FIRST_WINDOW.write30, read60: ROUTE_GROUP_FIRST_WINDOW.read60 },
};
const oneKey = (rateWindowScale: number, used?: number): TrafficConfig => ({
  gate: { trafficKeys: ['sk_test_one'], rateWindowScale, limits, ...(used !== undefined ? { trafficHourUsed: [used] } : {}) },
});

describe('mixed traffic rate', () => {
  it('on an idle key, half of the binding window: the minute at real time, the hour when windows are scaled down', () => {
    expect(trafficPerMinute(oneKey(1), 30)).toBe(40);
    expect(trafficPerMinute(oneKey(0.1), 30)).toBe(200);
  });

  it("on a key the run's checks used, half of what they left of its hour window", () => {
    // 280 of 300 used: 10 more over the 45 s the hour window is judged on.
    expect(trafficPerMinute(oneKey(0.1, 280), 30)).toBe(13);
    expect(smokeIterations(oneKey(0.1, 280), 30)).toBeLessThanOrEqual(6 + 5);
    // At real time the minute window binds before the hour's remainder does, until little is left.
    expect(trafficPerMinute(oneKey(1, 100), 30)).toBe(40);
    expect(trafficPerMinute(oneKey(1, 290), 30)).toBe(6);
  });
});
