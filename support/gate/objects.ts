// Conventions: "Single-object responses carry an `object` discriminator string" — judged where a response's
// fields are otherwise not shown (the signed quote, the pay-in, the embed bootstrap): whatever the value, it is
// a non-empty string.
import type { Exchange } from '../../src/client/types.js';
import type { CheckTools } from '../../src/runner/check.js';

export function expectObjectDiscriminator(t: CheckTools, ex: Exchange, what: string): void {
  const object: unknown = (ex.json as { object?: unknown } | undefined)?.object;
  t.expect.that(typeof object === 'string' && object.length > 0, `${what} carries an object discriminator string`, {
    requirement: 'GATE-CONV-OBJECT-DISCRIMINATOR',
    actual: object,
    exchange: ex,
  });
  t.observe('gate-object-discriminator', { what, object });
}
