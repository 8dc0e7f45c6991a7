// Pools quote creation: firm (the default), indicative, unavailable, the
// required body fields, the networks and the destination-address rules.
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { Capabilities, FirmQuote, IndicativeQuote, StoredQuote, TransactResponse, UnavailableQuote } from '../../src/model/schemas/pools/index.js';
import { breakChecksum, toChecksumAddress } from '../../src/model/eip55.js';

/** A mixed-case address from the EIP-55 test vectors. */
const EIP55_VECTOR = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
import { createFirmQuote, mainPool, poolPath, poolsProfile, quoteBody, quotePath, readTrade } from './support/pools.js';

const HEX = '0123456789abcdef';

/** Another well-formed (all-lowercase) address: the profile's with its last digit changed. */
function otherAddress(addr: string): string {
  const lower = addr.toLowerCase();
  const last = lower.at(-1)!;
  return lower.slice(0, -1) + HEX[(HEX.indexOf(last) + 1) % 16];
}

/** The destAddress a response exposes, when it exposes one (not documented on trades or stored quotes). */
function exposedAddress(json: unknown): string | undefined {
  const v = (json as Record<string, unknown> | undefined)?.destAddress;
  return typeof v === 'string' ? v : undefined;
}

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Quote creation response',
  checks: [
    {
      name: 'destAddress casing: valid EIP-55 mixed case, all lowercase and all uppercase pass; a broken checksum gives 400',
      requirements: ['POOLS-ADDR-EIP55-VALID', 'POOLS-ADDR-EIP55-INVALID-400', 'POOLS-ADDR-SINGLE-CASE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        // The profile's address when its EIP-55 form is mixed case; else a mixed-case vector from EIP-55 itself.
        const profileAddr = poolsProfile(ctx).quote.destAddress;
        const usable = (a: string) => {
          if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return false;
          const body = toChecksumAddress(a).slice(2);
          return body !== body.toLowerCase() && body !== body.toUpperCase();
        };
        const addr = usable(profileAddr) ? profileAddr : EIP55_VECTOR;
        ctx.observe('pools-eip55-address', addr === profileAddr ? 'profile destAddress' : 'EIP-55 test vector');
        const checksummed = toChecksumAddress(addr);
        const hex = addr.slice(2);
        const broken = breakChecksum(checksummed);
        const quote = (destAddress: string) => actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', destAddress }));
        const good = await quote(checksummed);
        ctx.expect.status(good, [200, 201], 'POOLS-ADDR-EIP55-VALID');
        ctx.expect.schema(good, FirmQuote, 'POOLS-ADDR-EIP55-VALID');
        for (const single of [`0x${hex.toLowerCase()}`, `0x${hex.toUpperCase()}`]) {
          const ex = await quote(single);
          ctx.expect.status(ex, [200, 201], 'POOLS-ADDR-SINGLE-CASE');
          ctx.expect.schema(ex, FirmQuote, 'POOLS-ADDR-SINGLE-CASE');
        }
        ctx.expect.error(await quote(broken), 400, 'invalid_request', { requirement: 'POOLS-ADDR-EIP55-INVALID-400' });
      },
    },
    {
      name: 'a quote without type is firm: quoteId, expiresAt, rate, bps, available and executable',
      requirements: ['POOLS-QUOTE-FIRM-SHAPE', 'POOLS-QUOTE-FIRM-DEFAULT'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx));
        ctx.expect.status(ex, [200, 201], 'POOLS-QUOTE-FIRM-DEFAULT');
        ctx.expect.schema(ex, FirmQuote, 'POOLS-QUOTE-FIRM-DEFAULT');
        await createFirmQuote(ctx, actor, 'POOLS-QUOTE-FIRM-SHAPE');
      },
    },
    {
      name: 'an indicative quote is available, not executable, and has no quoteId',
      requirements: ['POOLS-QUOTE-INDICATIVE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'indicative' }));
        ctx.expect.status(ex, [200, 201], 'POOLS-QUOTE-INDICATIVE');
        ctx.expect.schema(ex, IndicativeQuote, 'POOLS-QUOTE-INDICATIVE');
      },
    },
    {
      name: 'a dry pool answers 200 with available false, a documented reason and no quoteId',
      requirements: ['POOLS-QUOTE-UNAVAILABLE'],
      needs: ['pools.partner', 'pools.dryPool'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const dry = poolsProfile(ctx).pools.dry!;
        // Pool ids are <fiat>-<crypto>: the legs of the body follow the pool.
        const [fiatCurrency, cryptoCurrency] = dry.split('-');
        const ex = await actor.client.post(poolPath(dry, '/quote'), quoteBody(ctx, { type: 'firm', fiatCurrency, cryptoCurrency }));
        ctx.expect.status(ex, 200, 'POOLS-QUOTE-UNAVAILABLE');
        const q = ctx.expect.schema(ex, UnavailableQuote, 'POOLS-QUOTE-UNAVAILABLE');
        ctx.observe('pools-unavailable-reason', q.unavailableReason);
      },
    },
    {
      name: 'a quote without cryptoNetwork is on tron',
      requirements: ['POOLS-QUOTE-NETWORK-DEFAULT-TRON'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-QUOTE-NETWORK-DEFAULT-TRON';
        const actor = ctx.pools.partner();
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', cryptoNetwork: undefined, destNetwork: undefined }));
        if (ex.status === 200 && ex.json?.available === false) ctx.skip(`the main pool is unavailable on the default network (${ex.json?.unavailableReason})`);
        if (ex.status === 400) {
          ctx.observe('pools-default-network-refused', ex.json?.code, 'the target refused the default network for this pool and address');
          ctx.skip('the target refuses a quote on the default network for the profile quote (which network pairs with which pool is not shown)');
        }
        ctx.expect.status(ex, [200, 201], R);
        const q = ctx.expect.schema(ex, FirmQuote, R);
        const read = ctx.expect.status(await actor.client.get(quotePath(q.quoteId)), 200, R);
        ctx.expect.equal(ctx.expect.schema(read, StoredQuote, R).cryptoNetwork, 'tron', 'cryptoNetwork defaults to tron', { requirement: R, exchange: read });
      },
    },
    {
      name: 'a quote body missing side, fiatCurrency, cryptoCurrency or amount gives 400',
      requirements: ['POOLS-QUOTE-BODY-REQUIRED-400'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        for (const field of ['side', 'fiatCurrency', 'cryptoCurrency', 'amount']) {
          const ex = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', [field]: undefined }));
          ctx.expect.error(ex, 400, 'invalid_request', { requirement: 'POOLS-QUOTE-BODY-REQUIRED-400' });
        }
      },
    },
    {
      name: 'destNetwork from supportedNetworks is accepted; a non-EVM destNetwork gives 400',
      requirements: ['POOLS-QUOTE-DESTNETWORK-ALLOWLIST'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-QUOTE-DESTNETWORK-ALLOWLIST';
        const actor = ctx.pools.partner();
        const capEx = ctx.expect.status(await actor.client.get(poolPath(mainPool(ctx), '/capabilities')), 200, R);
        const cap = ctx.expect.schema(capEx, Capabilities, R);
        const allowed = cap.supportedNetworks[0];
        if (!allowed) ctx.skip('the main pool lists no supportedNetworks');
        const ok = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', destNetwork: allowed }));
        ctx.expect.status(ok, [200, 201], R);
        ctx.expect.schema(ok, FirmQuote, R);
        for (const bad of ['solana', 'tron']) {
          if (cap.supportedNetworks.includes(bad)) continue;
          const ex = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', destNetwork: bad }));
          ctx.expect.error(ex, 400, 'invalid_request', { requirement: R });
        }
      },
    },
    {
      name: 'an on_ramp quote without destAddress gives 400',
      requirements: ['POOLS-ADDR-REQUIRED-ON-RAMP-400'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        for (const type of ['firm', 'indicative']) {
          const ex = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type, destAddress: undefined }));
          ctx.expect.error(ex, 400, 'invalid_request', { requirement: 'POOLS-ADDR-REQUIRED-ON-RAMP-400' });
        }
      },
    },
    {
      name: 'a destAddress that is not 0x + 40 hex gives 400',
      requirements: ['POOLS-ADDR-FORMAT-400'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const hex = poolsProfile(ctx).quote.destAddress.slice(2).toLowerCase();
        for (const bad of [`0x${hex.slice(0, 39)}`, `0x${hex}0`, hex, `0x${hex.slice(0, 39)}g`]) {
          const ex = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', destAddress: bad }));
          ctx.expect.error(ex, 400, 'invalid_request', { requirement: 'POOLS-ADDR-FORMAT-400' });
        }
      },
    },
    {
      name: 'the delivery address is the one locked at quote time, never the transact body',
      requirements: ['POOLS-ADDR-LOCKED-AT-QUOTE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-ADDR-LOCKED-AT-QUOTE';
        const actor = ctx.pools.partner();
        const locked = poolsProfile(ctx).quote.destAddress;
        const { quote } = await createFirmQuote(ctx, actor, R);
        const path = poolPath(mainPool(ctx), '/transact');
        let ex = await actor.client.post(path, { quoteId: quote.quoteId, destAddress: otherAddress(locked) }, { idempotencyKey: true, retry: false });
        // The body is { quoteId } only: a target may refuse the extra field (400) or ignore it; either way the address stays the quoted one.
        if (ex.status === 400) {
          ctx.expect.error(ex, 400, 'invalid_request', { requirement: R });
          ctx.observe('pools-transact-extra-destAddress', 'refused with 400');
          ex = await actor.client.post(path, { quoteId: quote.quoteId }, { idempotencyKey: true });
        } else {
          ctx.observe('pools-transact-extra-destAddress', 'ignored');
        }
        ctx.expect.status(ex, [200, 201], R);
        const t = ctx.expect.schema(ex, TransactResponse, R);
        const trade = await readTrade(ctx, actor, t.transactId, R);
        const exposed = [exposedAddress(ex.json), exposedAddress(trade)].filter((a): a is string => a !== undefined);
        for (const a of exposed) {
          ctx.expect.equal(a.toLowerCase(), locked.toLowerCase(), 'the trade delivers to the address locked at quote time', { requirement: R, exchange: ex });
        }
        ctx.observe('pools-trade-exposes-destAddress', exposed.length > 0);
      },
    },
  ],
});
