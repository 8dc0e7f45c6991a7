// Profile loading: the shipped profiles parse, ${VAR} substitution, and errors that name what is wrong.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfile, parseProfile, ProfileError } from '../src/profile/load.js';

const EMBEDDED = 'fixtures/profiles/embedded.json';
const SANDBOX = 'fixtures/profiles/sandbox.example.json';

const key = (prefix: string, seed: string) => prefix + seed.repeat(32).slice(0, 32);
const SANDBOX_ENV: NodeJS.ProcessEnv = {
  GATE_SK_1: key('sk_test_', 'a1'),
  GATE_SK_2: key('sk_test_', 'b2'),
  GATE_SK_3: key('sk_test_', 'm3'),
  GATE_SK_FRESH: key('sk_test_', 'r8'),
  GATE_PK_1: key('pk_test_', 'c3'),
  GATE_LIVE_SK_1: key('sk_live_', 'd4'),
  GATE_REVOKED_SK_1: key('sk_test_', 'e5'),
  GATE_SK_1B: key('sk_test_', 'n4'),
  GATE_SK_1C: key('sk_test_', 'o5'),
  GATE_LIVE_PK_1: key('pk_live_', 'p6'),
  GATE_REVOKED_PK_1: key('pk_test_', 'q7'),
  GATE_WHSEC_1: 'whsec_' + 'f6'.repeat(16),
  GATE_WHSEC_2: 'whsec_' + 'g7'.repeat(16),
  POOLS_SK_1: key('sk_test_', 'h8'),
  POOLS_SK_2: key('sk_test_', 'i9'),
  POOLS_SK_KYC: key('sk_test_', 'j0'),
  POOLS_PK_1: key('pk_test_', 'k1'),
  POOLS_WHSEC_1: 'whsec_' + 'l2'.repeat(16),
  POOLS_LIVE_SK_1: key('sk_live_', 'm4'),
  POOLS_REVOKED_SK_1: key('sk_test_', 'n5'),
  POOLS_SK_NEW: key('sk_test_', 'o6'),
};

function tmpFile(name: string, content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-profile-'));
  const f = join(dir, name);
  writeFileSync(f, content);
  return f;
}

function thrown(fn: () => unknown): ProfileError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileError);
    return e as ProfileError;
  }
  throw new Error('expected a ProfileError');
}

describe('loadProfile', () => {
  it('parses the embedded profile: both services, 49 gate and 22 pools partners', () => {
    const p = loadProfile(EMBEDDED, {});
    expect(p.name).toBe('embedded');
    expect(p.gate.baseUrls.sandbox).toBe('http://127.0.0.1:4010/v1');
    expect(p.gate.partners).toHaveLength(49);
    expect(p.pools?.partners).toHaveLength(22);
    expect(p.webhooks.listenPort).toBe(0);
  });

  it('parses sandbox.example.json with every ${VAR} set, substituting the values', () => {
    const p = loadProfile(SANDBOX, SANDBOX_ENV);
    const acme = p.gate.partners.find((x) => x.secretKey === SANDBOX_ENV.GATE_SK_1);
    expect(acme).toBeDefined();
    expect(acme!.webhookSecret).toBe(SANDBOX_ENV.GATE_WHSEC_1);
    // $comment texts are documentation and stay verbatim; every other value is substituted.
    expect(JSON.stringify(p, (k, v) => (k === '$comment' ? undefined : v))).not.toContain('${');
  });

  it('a missing ${VAR} names the variable and where it is used, and does not echo other secrets', () => {
    const env = { ...SANDBOX_ENV };
    delete env.GATE_WHSEC_2;
    const e = thrown(() => loadProfile(SANDBOX, env));
    expect(e.message).toContain('GATE_WHSEC_2');
    expect(e.message).toMatch(/\(at \/gate\/partners\/\d+\/webhookSecret\)/);
    expect(e.message).not.toContain(SANDBOX_ENV.GATE_SK_1!);
    expect(e.exitCode).toBe(2);
  });

  it('a malformed profile lists the path of each bad field', () => {
    const raw = JSON.parse(readFileSync(EMBEDDED, 'utf8'));
    raw.gate.partners[0].secretKey = 'sk_live_' + 'x'.repeat(32);
    raw.gate.partners[3].allowedOrigins = ['https://shop.example/path'];
    raw.webhooks.listenPort = 70000;
    raw.gate.partners[1].unknownField = true;
    const e = thrown(() => loadProfile(tmpFile('bad.json', JSON.stringify(raw)), {}));
    expect(e.message).toContain('/gate/partners/0/secretKey');
    expect(e.message).toContain('/gate/partners/3/allowedOrigins/0');
    expect(e.message).toContain('/webhooks/listenPort');
    expect(e.message).toContain('/gate/partners/1');
    expect(e.message).not.toContain('x'.repeat(32));
    expect(e.exitCode).toBe(2);
  });

  it('a Gate key is sk_/pk_<test|live>_ and a 32-character body: a 31- or 33-character body is refused, naming the field and never the key', () => {
    const raw = JSON.parse(readFileSync(EMBEDDED, 'utf8'));
    raw.gate.partners[0].secretKey = 'sk_test_' + 'q'.repeat(31);
    raw.gate.partners[1].publishableKey = 'pk_test_' + 'r'.repeat(33);
    raw.gate.partners[2].extraSecretKeys = ['sk_test_' + 's'.repeat(31)];
    const e = thrown(() => loadProfile(tmpFile('short-key.json', JSON.stringify(raw)), {}));
    expect(e.message).toContain('/gate/partners/0/secretKey: a sandbox secret key is sk_test_ followed by 32 characters');
    expect(e.message).toContain('/gate/partners/1/publishableKey');
    expect(e.message).toContain('/gate/partners/2/extraSecretKeys/0');
    for (const c of ['q', 'r', 's']) expect(e.message).not.toContain(c.repeat(31));
    expect(e.exitCode).toBe(2);
    // 32 characters of any kind but whitespace are the documented form.
    raw.gate.partners[0].secretKey = 'sk_test_' + 'a-b_C.9'.repeat(5).slice(0, 32);
    raw.gate.partners[1].publishableKey = 'pk_test_' + 'r'.repeat(32);
    raw.gate.partners[2].extraSecretKeys = ['sk_test_' + 's'.repeat(32)];
    expect(parseProfile(raw, 'inline', {}).gate.partners[0]!.secretKey).toHaveLength(8 + 32);
  });

  it('an unreadable path or invalid JSON is a ProfileError with exit code 2', () => {
    expect(thrown(() => loadProfile('fixtures/profiles/does-not-exist.json', {})).message).toMatch(/cannot read the profile \(ENOENT\)/);
    const e = thrown(() => loadProfile(tmpFile('broken.json', '{"name": '), {}));
    expect(e.message).toMatch(/not valid JSON/);
    expect(e.exitCode).toBe(2);
  });

  it('parseProfile substitutes ${VAR} inside a longer string', () => {
    const raw = JSON.parse(readFileSync(EMBEDDED, 'utf8'));
    raw.gate.baseUrls.sandbox = 'http://${TARGET_HOST}:4010/v1';
    expect(parseProfile(raw, 'inline', { TARGET_HOST: '127.0.0.1' }).gate.baseUrls.sandbox).toBe('http://127.0.0.1:4010/v1');
  });
});
