// The embedded target's economics: one spread and fee for every pool, inside
// the approved bounds that capabilities report.
export const PRICING = {
  spreadBps: 25,
  feeBps: 10,
  spreadCapBps: 50,
  /** Order bounds in USDT equivalent. The maximum sits above the profile's oversized amount so that it reaches the 402 balance rule. */
  minOrderUsdt: '1.00',
  maxOrderUsdt: '5000000.00',
} as const;
