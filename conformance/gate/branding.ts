// Gate "Endpoints > Branding": the five tokens always present, PATCH merge,
// strictness, and each pattern and length at its edge. Initial values are
// never assumed (the merge check reads first), except on the partner the
// profile declares has never set its branding: every token null there. The success status of GET and
// PATCH /branding is not shown: any 2xx.
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { Branding, BRANDING_TOKENS } from '../../src/model/schemas/gate/branding.js';
import { expect2xx } from '../../support/expect.js';
import { refusedTogether } from '../../support/gate/validation.js';

const { brandNameMax, logoUrlMax } = GATE_LIMITS.branding;

/** An absolute https URL of exactly `length` chars. */
function httpsUrl(length: number): string {
  const head = `https://cdn.example.test/rampart/${randomUUID()}/`;
  const tail = '.png';
  return head + 'a'.repeat(length - head.length - tail.length) + tail;
}

/** A brand name of exactly `length` chars, unique per run. */
function brandName(length: number): string {
  const head = `rampart ${randomUUID().slice(0, 8)} `;
  return (head + 'x'.repeat(length)).slice(0, length);
}

/** Each body must be refused with 400 invalid_request. */
async function expectRefused(t: CheckTools, actor: GateActor, requirement: RequirementId, bodies: Record<string, unknown>[]): Promise<void> {
  for (const body of bodies) {
    const ex = await actor.client.patch('/branding', body, { retry: false });
    t.expect.error(ex, 400, 'invalid_request', { requirement });
  }
}

/** GET or PATCH /branding answered (any 2xx) with a Branding. */
function branding(t: CheckTools, ex: Exchange, requirement: RequirementId) {
  return t.expect.schema(expect2xx(t, ex, requirement), Branding, requirement);
}

const sameColor = (a: string | null | undefined, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Branding',
  checks: [
    check({
      name: 'GET /branding answers object branding with all five tokens present',
      requirements: ['GATE-BRAND-GET-SHAPE'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-BRAND-GET-SHAPE';
        const ex = await actor.client.get('/branding');
        branding(t, ex, R);
        // Null when unset: the key is still there, never omitted.
        for (const k of BRANDING_TOKENS) t.expect.that(k in (ex.json as object), `branding.${k} is present`, { requirement: R, exchange: ex });
      },
    }),
    check({
      name: 'a partner that never set its branding reads all five tokens null (the default branding)',
      requirements: ['GATE-BRAND-UNSET-NULL', 'GATE-BRAND-GET-SHAPE'],
      needs: ['gateBrandingUnset'],
      async run({ gateBrandingUnset: actor }, t: CheckTools) {
        const R = 'GATE-BRAND-UNSET-NULL';
        const ex = await actor.client.get('/branding');
        const b = branding(t, ex, 'GATE-BRAND-GET-SHAPE');
        for (const k of BRANDING_TOKENS)
          t.expect.that(k in (ex.json as object), `branding.${k} is present`, { requirement: 'GATE-BRAND-GET-SHAPE', exchange: ex });
        t.expect.equal(
          Object.fromEntries(BRANDING_TOKENS.map((k) => [k, b[k]])),
          Object.fromEntries(BRANDING_TOKENS.map((k) => [k, null])),
          `${actor.partner.name} never set a token (the profile's brandingUnset): every one reads null`,
          { requirement: R, exchange: ex },
        );
      },
    }),
    check({
      name: 'PATCH /branding merges supplied tokens, keeps omitted ones and accepts values at the edges',
      requirements: ['GATE-BRAND-PATCH-MERGE', 'GATE-BRAND-NAME-MAX-64', 'GATE-BRAND-LOGO-MAX-2048', 'GATE-BRAND-COLOR-PATTERN'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const M = 'GATE-BRAND-PATCH-MERGE';
        const { client } = actor;
        const before = branding(t, await client.get('/branding'), M);

        const name = brandName(brandNameMax);
        const ex1 = await client.patch('/branding', { brand_name: name });
        const b1 = branding(t, ex1, 'GATE-BRAND-NAME-MAX-64');
        t.expect.equal(b1.brand_name, name, `a ${brandNameMax}-char brand_name is stored`, { requirement: 'GATE-BRAND-NAME-MAX-64', exchange: ex1 });
        for (const k of ['logo_url', 'primary_color', 'secondary_color', 'accent_color'] as const) {
          t.expect.equal(b1[k], before[k], `omitted ${k} is kept`, { requirement: M, exchange: ex1 });
        }

        const logo = httpsUrl(logoUrlMax);
        const ex2 = await client.patch('/branding', { logo_url: logo });
        const b2 = branding(t, ex2, 'GATE-BRAND-LOGO-MAX-2048');
        t.expect.equal(b2.logo_url, logo, `a ${logoUrlMax}-char https logo_url is stored`, { requirement: 'GATE-BRAND-LOGO-MAX-2048', exchange: ex2 });
        t.expect.equal(b2.brand_name, name, 'brand_name set by the previous PATCH is kept', { requirement: M, exchange: ex2 });

        // Every color token, each a valid value (any case): stored as sent.
        const colors = { primary_color: '#abcdef', secondary_color: '#0A1b2C', accent_color: '#C0ffEE' };
        const ex3 = await client.patch('/branding', colors);
        const b3 = branding(t, ex3, 'GATE-BRAND-COLOR-PATTERN');
        for (const [k, v] of Object.entries(colors)) {
          t.expect.that(sameColor(b3[k as keyof typeof colors], v), `${k} ${v} is accepted and stored`, {
            requirement: 'GATE-BRAND-COLOR-PATTERN',
            expected: v,
            actual: b3[k as keyof typeof colors],
            exchange: ex3,
          });
        }
        t.expect.equal([b3.logo_url, b3.brand_name], [logo, name], 'logo_url and brand_name are kept', { requirement: M, exchange: ex3 });

        const after = branding(t, await client.get('/branding'), M);
        t.expect.equal(
          BRANDING_TOKENS.map((k) => after[k]),
          BRANDING_TOKENS.map((k) => b3[k]),
          'GET /branding reads what the last PATCH answered',
          { requirement: M },
        );
      },
    }),
    check({
      name: "one partner's PATCH /branding never shows in another partner's GET /branding",
      requirements: ['GATE-BRAND-TENANT'],
      // The owner is held alone: its brand_name changes only through this check while it reads it.
      needs: ['gateExclusive', 'gateOtherTenant'],
      async run({ gateExclusive: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-BRAND-TENANT';
        const name = brandName(brandNameMax);
        const mine = branding(t, await owner.client.patch('/branding', { brand_name: name }), R);
        t.expect.equal(mine.brand_name, name, "the partner's PATCH sets its brand_name", { requirement: R });
        const ex = await other.client.get('/branding');
        const theirs = branding(t, ex, R);
        t.expect.that(theirs.brand_name !== name, "another partner's branding does not show the partner's brand_name", {
          requirement: R,
          actual: theirs.brand_name,
          exchange: ex,
        });
      },
    }),
    check({
      name: 'PATCH /branding with an unknown property gives 400',
      requirements: ['GATE-BRAND-PATCH-UNKNOWN-400'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        await expectRefused(t, actor, 'GATE-BRAND-PATCH-UNKNOWN-400', [{ brand_name: 'rampart', font_family: 'serif' }]);
      },
    }),
    check({
      name: 'a 65-char brand_name gives 400',
      requirements: ['GATE-BRAND-NAME-MAX-64'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        await expectRefused(t, actor, 'GATE-BRAND-NAME-MAX-64', [{ brand_name: brandName(brandNameMax + 1) }]);
      },
    }),
    check({
      name: 'a 2049-char logo_url gives 400',
      requirements: ['GATE-BRAND-LOGO-MAX-2048'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        await expectRefused(t, actor, 'GATE-BRAND-LOGO-MAX-2048', [{ logo_url: httpsUrl(logoUrlMax + 1) }]);
      },
    }),
    check({
      name: 'an http:// or relative logo_url gives 400',
      requirements: ['GATE-BRAND-LOGO-HTTPS'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        await expectRefused(t, actor, 'GATE-BRAND-LOGO-HTTPS', [{ logo_url: 'http://cdn.example.test/logo.png' }, { logo_url: '/logo.png' }]);
      },
    }),
    check({
      name: 'colors outside ^#[0-9a-fA-F]{6}$ give 400',
      requirements: ['GATE-BRAND-COLOR-PATTERN'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-BRAND-COLOR-PATTERN';
        // Three tokens in one PATCH first; those its 400 does not name each in a part of its own are sent alone.
        await refusedTogether(t, (body) => actor.client.patch('/branding', body, { retry: false }), {}, [
          { field: 'primary_color', body: { primary_color: '#abcdeg' }, requirement: R },
          { field: 'secondary_color', body: { secondary_color: 'abc' }, requirement: R },
          { field: 'accent_color', body: { accent_color: '#abc' }, requirement: R },
        ]);
        await expectRefused(t, actor, R, [{ primary_color: '#abcdef0' }]);
      },
    }),
  ],
});
