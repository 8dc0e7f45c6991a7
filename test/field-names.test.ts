// Field-name rules (support/pools/fieldNames.ts): a key fails a "must not
// carry" rule only when its words name the omitted data itself; additive
// fields that merely contain such a word are left to observation.
import { describe, expect, it } from 'vitest';
import { keysNamed, wordsOf } from '../support/pools/fieldNames.js';

describe('field names', () => {
  it('splits camelCase, snake_case, kebab-case and acronyms into words', () => {
    expect(['kycStatus', 'KYCStatus', 'pool_access_suspended', 'treasury-account', 'autoTopUpEnabled'].map(wordsOf)).toEqual([
      'kyc status',
      'kyc status',
      'pool access suspended',
      'treasury account',
      'auto top up enabled',
    ]);
  });

  it('names exactly the omitted data, nested or not; additive fields with such a word pass', () => {
    const balance = { poolId: 'EUR-USDT', autoTopUpEnabled: false, kycDocsUrl: 'https://x.test', meta: { kycStatus: 'approved', accessState: 'active' } };
    expect(keysNamed(balance, ['kyc status', 'access state', 'enabled'])).toEqual(['meta.kycStatus', 'meta.accessState']);
    expect(keysNamed({ routeHint: 'fast', providerFee: '0.1', liquidityProvider: 'x' }, ['liquidity provider', 'route', 'provider'])).toEqual([
      'liquidityProvider',
    ]);
  });

  it('a key inside the key that holds it reads as both: { provider: { name } } is a provider name', () => {
    const quote = { provider: { name: 'LiquidityCo', id: 'lp_1' }, kyc: { status: 'approved' }, autoTopUp: { enabled: false }, statements: { access: 'csv' } };
    expect(keysNamed(quote, ['provider name', 'kyc status', 'enabled', 'access'])).toEqual([
      'provider.name',
      'kyc.status',
      'autoTopUp.enabled',
      'statements.access',
    ]);
    expect(keysNamed(quote, ['provider name', 'kyc status'])).toEqual(['provider.name', 'kyc.status']);
    // Arrays keep the holding key: [{ provider: { name } }] is a provider name too.
    expect(keysNamed({ routes: [{ provider: { name: 'x' } }] }, ['provider name'])).toEqual(['routes[0].provider.name']);
  });
});
