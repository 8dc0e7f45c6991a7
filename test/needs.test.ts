// The needs registry: one file per need, found by discovery; each says when a
// profile provides it and, when not, which profile field to add; a check's
// needs are set up once, dependencies first.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NeedEnv } from '../src/needs/define.js';
import { allMissing, firstMissing, NEEDS, needProvider, withRequired } from '../src/needs/registry.js';
import { Profile } from '../src/profile/schema.js';

const minimal = Profile.parse({
  name: 'minimal',
  gate: { baseUrls: { sandbox: 'http://127.0.0.1:1/v1' }, partners: [{ name: 'only', secretKey: 'sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }] },
});

describe('needs registry', () => {
  it('finds one need per file under src/needs/{gate,pools,harness}, names unique, each described', () => {
    const files = ['gate', 'pools', 'harness'].flatMap((d) =>
      readdirSync(`src/needs/${d}`)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `src/needs/${d}/${f}`),
    );
    expect(NEEDS.size).toBe(files.length);
    expect([...NEEDS.values()].map((n) => n.file).sort()).toEqual(files.sort());
    for (const n of NEEDS.values()) {
      expect(n.description.length, n.name).toBeGreaterThan(10);
      expect(n.file.startsWith(`src/needs/${n.name.startsWith('gate') ? 'gate' : n.name.startsWith('pools') ? 'pools' : 'harness'}/`), n.name).toBe(true);
    }
  });

  it('a minimal profile: what is missing names the profile field to add', () => {
    expect(firstMissing(minimal, ['gatePartner'], 'quick')).toBeNull();
    expect(firstMissing(minimal, ['gateOtherTenant'], 'quick')?.reason).toMatch(/only one gate partner/);
    expect(firstMissing(minimal, ['gateRevokedKey'], 'quick')?.reason).toMatch(/revokedSecretKey/);
    expect(firstMissing(minimal, ['gateCompleteSession'], 'quick')?.reason).toMatch(/gate\.triggers\.completeSession/);
    expect(firstMissing(minimal, ['poolsPartner'], 'quick')?.reason).toMatch(/no pools section/);
    expect(allMissing(minimal, ['gatePartner', 'gateWebhooks', 'poolsTradeOutcome'], 'quick').map((m) => m.need)).toEqual([
      'gateWebhooks',
      'poolsTradeOutcome',
    ]);
  });

  it('a declared session lifetime stands in for the expire trigger, within what the depth waits', () => {
    const withLifetime = (s: number) => ({ ...minimal, timing: { ...minimal.timing, sessionLifetimeSeconds: s } });
    expect(firstMissing(withLifetime(60), ['gateExpireSession'], 'quick')).toBeNull();
    expect(firstMissing(withLifetime(1800), ['gateExpireSession'], 'quick')?.reason).toMatch(/above the 120 s a quick run waits: run --depth full/);
    expect(firstMissing(withLifetime(1800), ['gateExpireSession'], 'full')).toBeNull();
  });

  it('dependencies come first and a need is set up once per check', async () => {
    expect(withRequired(['gateOtherTenant', 'gatePartner'])).toEqual(['gateOtherTenant', 'gatePartner']);
    expect(() => withRequired(['noSuchNeed'])).toThrow(/unknown need noSuchNeed/);
    let setups = 0;
    const env = {
      profile: minimal,
      run: { profile: minimal },
      gateActors: new Map(),
      poolsActors: new Map(),
      onRelease: () => undefined,
    } as unknown as NeedEnv;
    const original = NEEDS.get('gateCountries')!.setup;
    (NEEDS.get('gateCountries') as { setup: typeof original }).setup = (e) => {
      setups++;
      return original(e);
    };
    try {
      const get = needProvider(() => env);
      const profileWithCatalog = {
        ...minimal,
        gate: { ...minimal.gate, catalog: { supportedCountry: 'DE', supportedCountryCurrency: 'EUR', unsupportedCountry: 'KP' } },
      };
      Object.assign(env, { profile: profileWithCatalog });
      const [a, b] = await Promise.all([get('gateCountries'), get('gateCountries')]);
      expect(a).toEqual({ supported: 'DE', supportedCurrency: 'EUR', unsupported: 'KP' });
      expect(b).toBe(a);
      expect(setups).toBe(1);
    } finally {
      (NEEDS.get('gateCountries') as { setup: typeof original }).setup = original;
    }
  });
});
