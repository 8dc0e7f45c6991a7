// Conventions: "Single-object responses carry an `object` discriminator string" — judged where a response's
// fields are otherwise not shown (the signed quote, the pay-in, the embed bootstrap): whatever the value, it is
// a non-empty string.
import type { Exchange } from '../../src/client/types.js';
import type { CheckTools } from '../../src/runner/check.js';

export function expectObjectDiscriminator(t: CheckTools, ex: Exchange, what: string, opts: { shapeNotShown?: boolean } = {}): void {
  // A response whose shape is not shown may not be a single object at all (an array): the convention is for objects.
  if (opts.shapeNotShown && (!ex.json || typeof ex.json !== 'object' || Array.isArray(ex.json))) {
    t.observe('gate-object-discriminator', { what, body: Array.isArray(ex.json) ? 'array' : typeof ex.json }, 'not a single object: no discriminator to judge');
    return;
  }
  const object: unknown = (ex.json as { object?: unknown } | undefined)?.object;
  t.expect.that(typeof object === 'string' && object.length > 0, `${what} carries an object discriminator string`, {
    requirement: 'GATE-CONV-OBJECT-DISCRIMINATOR',
    actual: object,
    exchange: ex,
  });
  t.observe('gate-object-discriminator', { what, object });
}
