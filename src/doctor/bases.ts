// Each base URL answers as the API: a read without a credential must come back
// 401 in the documented error envelope. No key is involved, so a wrong key
// never reads as a wrong base (the key rows judge keys).
import type { DoctorContext } from './context.js';
import { answered } from './context.js';
import { withBaseUrl, withoutBaseUrl } from './edits.js';

/** A secret-key read of each service: without a credential it must be refused 401. */
const PROBE = { gate: '/gate_sessions', pools: '/pools/trades' } as const;

export async function checkBases(ctx: DoctorContext): Promise<void> {
  const { profile } = ctx;
  const bases: { service: 'gate' | 'pools'; which: 'sandbox' | 'production'; url?: string }[] = [
    { service: 'gate', which: 'sandbox', url: profile.gate.baseUrls.sandbox },
    { service: 'gate', which: 'production', url: profile.gate.baseUrls.production },
    ...(profile.pools
      ? [
          { service: 'pools' as const, which: 'sandbox' as const, url: profile.pools.baseUrls.sandbox },
          { service: 'pools' as const, which: 'production' as const, url: profile.pools.baseUrls.production },
        ]
      : []),
  ];
  for (const b of bases) {
    const name = `${b.service}.baseUrls.${b.which}`;
    if (!b.url) {
      ctx.row({
        area: 'base URL',
        name,
        status: 'missing',
        detail: 'not declared',
        with: withBaseUrl(b.service),
        fix: `add ${name} (a test key presented there must be refused)`,
      });
      continue;
    }
    const without = withoutBaseUrl(b.service, b.which);
    const path = PROBE[b.service];
    const ex = await ctx.call(ctx.client(b.service, b.url, name), { method: 'GET', path, auth: 'none' });
    if (typeof ex === 'string') {
      ctx.row({ area: 'base URL', name, status: 'broken', detail: ex, without, fix: `check ${name} and that the target is up` });
      continue;
    }
    const envelope = ex.json as { type?: unknown; statusCode?: unknown } | undefined;
    if (ex.status === 401 && typeof envelope?.type === 'string')
      ctx.row({ area: 'base URL', name, status: 'ok', detail: `GET ${path} without a key answered 401 ${envelope.type}, as the API does`, without });
    else
      ctx.row({
        area: 'base URL',
        name,
        status: 'broken',
        detail: `GET ${path} without a key ${answered(ex)} (the API answers 401 with its error envelope)`,
        without,
        fix: `${name} must be the API's base address, ending in /v1`,
      });
  }
}
