// Gate branding explored: GET, PATCH, and a PATCH refused whole (one bad token beside good ones). The partner's branding is older than the sequence (a lived-in sandbox, and
// every earlier sequence): a sequence first sets every token (one PATCH of all five), so what it judges follows from its
// own steps alone; then a PATCH sets the tokens it supplies on both sides alike and keeps every other token as that side
// last showed it, and a GET shows what the last PATCH left.
import fc from 'fast-check';
import type { RequirementId } from '../../../model/catalogue/index.js';
import { BRANDING_TOKENS } from '../../../model/schemas/gate/branding.js';
import { holds, sameOutcome } from '../../divergence.js';
import type { ExploreModel, Side } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, bodyOf } from '../command.js';

const SIDES: Side[] = ['target', 'oracle'];
const hex = (n: number) => `#${((n * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6)}`;
const PATCHES: { name: string; body: (n: number) => Record<string, unknown> }[] = [
  { name: 'primary_color', body: (n) => ({ primary_color: hex(n) }) },
  { name: 'secondary_color', body: (n) => ({ secondary_color: hex(n + 1) }) },
  { name: 'accent_color', body: (n) => ({ accent_color: hex(n + 2) }) },
  { name: 'brand_name', body: (n) => ({ brand_name: `Explore ${n}` }) },
  { name: 'two colors', body: (n) => ({ primary_color: hex(n + 3), accent_color: hex(n + 4) }) },
];

const tokens = (b: Record<string, unknown>) => Object.fromEntries(BRANDING_TOKENS.map((k) => [k, b[k] ?? null]));

/** Each side's tokens against what that side showed before (the rule a divergence breaks: the last PATCH's merge). */
function asBefore(r: Real, m: ExploreModel, now: Record<Side, Record<string, unknown>>, except: readonly string[], rule: RequirementId): void {
  for (const side of SIDES) {
    const before = m.branding[side];
    if (!before) continue;
    for (const k of BRANDING_TOKENS) {
      if (except.includes(k)) continue;
      holds(r, JSON.stringify(before[k] ?? null) === JSON.stringify(now[side][k] ?? null), rule, () => ({
        what: `branding token ${k} kept on the ${side}`,
        target: side === 'target' ? now.target[k] : '(kept)',
        oracle: side === 'oracle' ? now.oracle[k] : '(kept)',
      }));
    }
  }
}

/** A PATCH of all five tokens: the sequence's own starting point, whatever the branding held before. */
async function setEveryToken(m: ExploreModel, r: Real): Promise<void> {
  const body = {
    logo_url: `https://example.test/rampart/${encodeURIComponent(r.context.tag)}-${m.serial}.png`,
    primary_color: hex(m.serial + 5),
    secondary_color: hex(m.serial + 6),
    accent_color: hex(m.serial + 7),
    brand_name: `Explore ${r.context.tag} ${m.serial}`,
  };
  const ex = await r.both((side) => r.gate(side).patch('/branding', body));
  sameOutcome(r, ex, { requirement: { '2xx': 'GATE-BRAND-PATCH-MERGE' } });
  if (ex.oracle.status >= 300) return;
  const now = { target: tokens(bodyOf(ex.target)), oracle: tokens(bodyOf(ex.oracle)) };
  expectSet(r, body, now);
  m.branding = now;
}

/** A colour reads back as sent or lower-cased (gate.branding.colorCase: either matches the pattern); other tokens as sent. */
const asSet = (k: string, shown: unknown, sent: unknown) =>
  shown === sent || (k.endsWith('_color') && typeof shown === 'string' && typeof sent === 'string' && shown.toLowerCase() === sent.toLowerCase());

/** Every token a PATCH supplied reads as it set it, on the target. */
function expectSet(r: Real, body: Record<string, unknown>, now: Record<Side, Record<string, unknown>>): void {
  for (const [k, v] of Object.entries(body))
    holds(r, asSet(k, now.target[k], v), 'GATE-BRAND-PATCH-MERGE', () => ({
      what: `branding token ${k} as the PATCH set it`,
      target: now.target[k],
      oracle: now.oracle[k],
    }));
}

const started = (m: Readonly<ExploreModel>) => !!m.branding.target && !!m.branding.oracle;
const START = 'set every branding token, then ';

/** GET /branding: what the last PATCH left, on each side. */
async function readBranding(m: ExploreModel, r: Real): Promise<void> {
  const ex = await r.both((side) => r.gate(side).get('/branding'));
  sameOutcome(r, ex, { requirement: { '2xx': 'GATE-BRAND-GET-SHAPE' } });
  if (ex.oracle.status >= 300) return;
  const now = { target: tokens(bodyOf(ex.target)), oracle: tokens(bodyOf(ex.oracle)) };
  asBefore(r, m, now, [], 'GATE-BRAND-PATCH-MERGE');
  m.branding = now;
}

export class GetBranding extends ExploreCommand {
  label(m: ExploreModel): string {
    return `${started(m) ? '' : START}read the branding`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    if (!started(m)) await setEveryToken(m, r);
    await readBranding(m, r);
  }
}

export class PatchBranding extends ExploreCommand {
  constructor(
    readonly variant: number,
    /** Read the branding back after the PATCH. */
    readonly then: 'none' | 'get' = 'none',
  ) {
    super();
  }
  label(m: ExploreModel): string {
    const first = started(m) ? '' : START;
    return `${first}PATCH the branding (${PATCHES[this.variant % PATCHES.length]!.name})${this.then === 'get' ? ', then read it' : ''}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    // The sequence's starting point first: a shrunk sequence then replays alone, whatever ran before it.
    if (!started(m)) await setEveryToken(m, r);
    const body = PATCHES[this.variant % PATCHES.length]!.body(m.serial);
    const ex = await r.both((side) => r.gate(side).patch('/branding', body));
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-BRAND-PATCH-MERGE', 400: 'GATE-BRAND-COLOR-PATTERN' } });
    if (ex.oracle.status >= 300) return;
    const now = { target: tokens(bodyOf(ex.target)), oracle: tokens(bodyOf(ex.oracle)) };
    expectSet(r, body, now);
    asBefore(r, m, now, Object.keys(body), 'GATE-BRAND-PATCH-MERGE');
    m.branding = now;
    if (this.then === 'get') await readBranding(m, r);
  }
}

/** Updates the spec refuses with 400 whole: one bad token beside a good one (the good one must not be applied either). */
const REFUSED: { name: string; body: (n: number) => Record<string, unknown>; rule: RequirementId }[] = [
  {
    name: 'a good primary_color, an accent_color off the pattern',
    body: (n) => ({ primary_color: hex(n + 8), accent_color: 'teal' }),
    rule: 'GATE-BRAND-COLOR-PATTERN',
  },
  {
    name: 'a good brand_name, a logo_url over http',
    body: (n) => ({ brand_name: `Refused ${n}`, logo_url: 'http://example.test/logo.png' }),
    rule: 'GATE-BRAND-LOGO-HTTPS',
  },
  {
    name: 'a good secondary_color, a 65-character brand_name',
    body: (n) => ({ secondary_color: hex(n + 9), brand_name: 'b'.repeat(65) }),
    rule: 'GATE-BRAND-NAME-MAX-64',
  },
  {
    name: 'a good accent_color, an unknown property',
    body: (n) => ({ accent_color: hex(n + 10), rampart_unknown: 'x' }),
    rule: 'GATE-BRAND-PATCH-UNKNOWN-400',
  },
];

/** A PATCH refused 400 (one bad token beside good ones), then the branding read: every token as before the PATCH. */
export class RefusedBrandingPatch extends ExploreCommand {
  constructor(readonly variant: number) {
    super();
  }
  label(m: ExploreModel): string {
    return `${started(m) ? '' : START}PATCH the branding refused (${REFUSED[this.variant % REFUSED.length]!.name}), then read it`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    if (!started(m)) await setEveryToken(m, r);
    const refused = REFUSED[this.variant % REFUSED.length]!;
    const ex = await r.both((side) => r.gate(side).patch('/branding', refused.body(m.serial)));
    sameOutcome(r, ex, { requirement: { 400: refused.rule, '2xx': refused.rule } });
    if (ex.oracle.status < 300) return;
    // A refused update makes no change: the read shows each side's tokens as that side last showed them.
    const read = await r.both((side) => r.gate(side).get('/branding'));
    sameOutcome(r, read, { requirement: { '2xx': 'GATE-BRAND-GET-SHAPE' } });
    if (read.oracle.status >= 300) return;
    const now = { target: tokens(bodyOf(read.target)), oracle: tokens(bodyOf(read.oracle)) };
    asBefore(r, m, now, [], refused.rule);
    m.branding = now;
  }
}

export function brandingCommands(): fc.Arbitrary<ExploreCommand>[] {
  return [
    fc.constant(null).map(() => new GetBranding()),
    // Every PATCH is read back: a cache one PATCH forgets shows in the read that follows it.
    fc.nat(PATCHES.length - 1).map((v) => new PatchBranding(v, 'get')),
    fc.nat(REFUSED.length - 1).map((v) => new RefusedBrandingPatch(v)),
  ];
}
