// Sandbox-only helpers for what only a bank or a chain could cause: the
// outcome the next settlement poll discovers, and where the partner's pools
// webhooks go. Reached by the harness only through the profile's triggers;
// they exist on the sandbox base only (404 on production) and need the
// partner's secret key.
import { HttpError, jsonObject } from '../kit/http.js';
import type { Outcome, PoolsArea } from './world.js';

const OUTCOMES: readonly Outcome[] = ['settled', 'failed', 'released', 'returned'];

export const area: PoolsArea = {
  name: 'sandboxHelpers',
  faults: [],
  register(router, world) {
    const prefix = world.profile.reference?.helperPrefix ?? '/_sandbox';

    router.on('POST', `${prefix}/trades/:quoteId/outcome`, (req) => {
      const caller = world.auth(req);
      if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base.', 'route_not_found');
      const q = world.quote(caller, req.params.quoteId!);
      const b = jsonObject(req);
      if (typeof b.outcome !== 'string' || !OUTCOMES.includes(b.outcome as Outcome)) throw new HttpError(400, `outcome must be one of ${OUTCOMES.join(', ')}`, 'parameter_invalid');
      world.outcomes.set(q.quoteId, b.outcome as Outcome);
      return { status: 200, body: { quoteId: q.quoteId, outcome: b.outcome } };
    });

    router.on('PUT', `${prefix}/webhook-settings`, (req) => {
      const caller = world.auth(req);
      if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base.', 'route_not_found');
      const b = jsonObject(req);
      const url = b.webhook_url;
      if (url !== null && (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url))) throw new HttpError(400, 'webhook_url must be an http(s) URL or null', 'parameter_invalid');
      world.state(caller).webhookUrl = url as string | null;
      return { status: 200, body: { webhook_url: url } };
    });
  },
};
