// Gate "Versioning": the URL carries the major segment /v1. The contract date
// lives in the specification's version field, not in any response, so it is
// not checked (see the catalogue).
import { defineSuite, type CheckContext } from '../../src/runner/check.js';

const R = 'GATE-VER-V1-SEGMENT';

/** The last path segment of a base address ("/v1" for http://host/v1 and http://host/v1/). */
function lastSegment(url: string): string {
  const parts = new URL(url).pathname.split('/').filter(Boolean);
  return parts.length ? `/${parts[parts.length - 1]}` : '/';
}

export default defineSuite({
  service: 'gate',
  section: 'Versioning',
  checks: [
    {
      name: 'the base addresses end in /v1 and the API answers under it',
      requirements: [R],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const { sandbox, production } = ctx.profile.gate.baseUrls;
        for (const [which, url] of [['sandbox', sandbox], ['production', production]] as const) {
          if (url === undefined) continue;
          ctx.expect.equal(lastSegment(url), '/v1', `the ${which} base address ends in the version segment /v1`, { requirement: R });
        }
        const { client } = ctx.gate.partner();
        const ex = ctx.expect.status(await client.get('/gate_sessions'), 200, R);
        ctx.expect.that(new URL(ex.request.url).pathname.includes('/v1/gate_sessions'), 'the request went to a path under /v1', {
          requirement: R,
          actual: new URL(ex.request.url).pathname,
          exchange: ex,
        });
        ctx.expect.equal(ex.json?.object, 'list', 'GET /v1/gate_sessions answers the sessions list', { requirement: R, exchange: ex });
      },
    },
  ],
});
