// Pools quote creation: firm (the default), indicative, unavailable, the
// required body fields, the networks and the destination-address rules.
// Success statuses of quote creation are not shown (any 2xx), except the
// unavailable answer, which the spec fixes at 200.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { FirmQuote, IndicativeQuote, PoolsList, StoredQuote, TransactResponse, UnavailableQuote } from '../../src/model/schemas/pools/index.js';
import { breakChecksum, toChecksumAddress } from '../../src/model/eip55.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import { createFirmQuote, mainPool, poolPath, poolsProfile, quoteBody, quotePath, readCapabilities, readTrade } from '../../support/pools/pools.js';

/** EVM chains a destNetwork could name: one outside the pool's supportedNetworks must be refused. */
const EVM_NETWORKS = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'base', 'avalanche'];
/** The documented cryptoNetwork values beyond the default (tron, judged on its own). */
const OTHER_NETWORKS = ['ethereum', 'bsc', 'polygon', 'solana'] as const;

/** A mixed-case address from the EIP-55 test vectors. */
const EIP55_VECTOR = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
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
    check({
      name: 'destAddress casing: valid EIP-55 mixed case, all lowercase and all uppercase pass; a broken checksum gives 400',
      requirements: ['POOLS-ADDR-EIP55-VALID', 'POOLS-ADDR-EIP55-INVALID-400', 'POOLS-ADDR-SINGLE-CASE', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        // The profile's address when its EIP-55 form is mixed case; else a mixed-case vector from EIP-55 itself.
        const profileAddr = poolsProfile(t).quote.destAddress;
        const usable = (a: string) => {
          if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return false;
          const body = toChecksumAddress(a).slice(2);
          return body !== body.toLowerCase() && body !== body.toUpperCase();
        };
        const addr = usable(profileAddr) ? profileAddr : EIP55_VECTOR;
        t.observe('pools-eip55-address', addr === profileAddr ? 'profile destAddress' : 'EIP-55 test vector');
        const checksummed = toChecksumAddress(addr);
        const hex = addr.slice(2);
        const quote = (destAddress: string) =>
          actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', destAddress }), { retry: false });
        const good = expect2xx(t, await quote(checksummed), 'POOLS-ADDR-EIP55-VALID', 'a quote to a valid EIP-55 mixed-case address');
        t.expect.schema(good, FirmQuote, 'POOLS-ADDR-EIP55-VALID');
        for (const single of [`0x${hex.toLowerCase()}`, `0x${hex.toUpperCase()}`]) {
          const ex = expect2xx(
            t,
            await quote(single),
            'POOLS-ADDR-SINGLE-CASE',
            `a quote to ${single === `0x${hex.toLowerCase()}` ? 'an all-lowercase' : 'an all-uppercase'} address`,
          );
          t.expect.schema(ex, FirmQuote, 'POOLS-ADDR-SINGLE-CASE');
        }
        expectPoolsError(t, await quote(breakChecksum(checksummed)), 400, { requirement: 'POOLS-ADDR-EIP55-INVALID-400' });
      },
    }),
    check({
      name: 'a quote without type is firm: quoteId, expiresAt, rate, bps, available and executable',
      requirements: ['POOLS-QUOTE-FIRM-SHAPE', 'POOLS-QUOTE-FIRM-DEFAULT'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        await createFirmQuote(t, actor, 'POOLS-QUOTE-FIRM-SHAPE');
        const ex = expect2xx(t, await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t)), 'POOLS-QUOTE-FIRM-DEFAULT', 'a quote without type');
        // Firm is what sets it apart: executable, with a quoteId (the rest of the shape is FIRM-SHAPE's, judged above).
        t.expect.that(
          ex.json?.executable === true && typeof ex.json?.quoteId === 'string' && ex.json.quoteId.length > 0,
          'a quote without type is firm: executable true, with a quoteId',
          {
            requirement: 'POOLS-QUOTE-FIRM-DEFAULT',
            actual: { executable: ex.json?.executable, quoteId: ex.json?.quoteId },
            exchange: ex,
          },
        );
        t.expect.schema(ex, FirmQuote, 'POOLS-QUOTE-FIRM-SHAPE');
      },
    }),
    check({
      name: 'an indicative quote is available, not executable, and has no quoteId',
      requirements: ['POOLS-QUOTE-INDICATIVE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const ex = expect2xx(
          t,
          await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'indicative' })),
          'POOLS-QUOTE-INDICATIVE',
          'an indicative quote',
        );
        t.expect.schema(ex, IndicativeQuote, 'POOLS-QUOTE-INDICATIVE');
      },
    }),
    check({
      name: 'a dry pool answers 200 with available false, a documented reason and no quoteId',
      requirements: ['POOLS-QUOTE-UNAVAILABLE'],
      needs: ['poolsPartner', 'poolsDryPool'],
      async run({ poolsPartner: actor, poolsDryPool: dry }, t: CheckTools) {
        // Pool ids are <fiat>-<crypto>: the legs of the body follow the pool.
        const [fiatCurrency, cryptoCurrency] = dry.split('-');
        const ex = await actor.client.post(poolPath(dry, '/quote'), quoteBody(t, { type: 'firm', fiatCurrency, cryptoCurrency }), { retry: false });
        // "Unavailable: HTTP 200": the one quote status the spec fixes.
        t.expect.status(ex, 200, 'POOLS-QUOTE-UNAVAILABLE');
        const q = t.expect.schema(ex, UnavailableQuote, 'POOLS-QUOTE-UNAVAILABLE');
        t.observe('pools-unavailable-reason', q.unavailableReason);
      },
    }),
    check({
      name: 'GET /pools shows the dry pool available false while its quotes answer unavailable (available reflects the current state)',
      requirements: ['POOLS-DISC-AVAILABLE-CURRENT'],
      needs: ['poolsPartner', 'poolsDryPool'],
      async run({ poolsPartner: actor, poolsDryPool: dry }, t: CheckTools) {
        const R = 'POOLS-DISC-AVAILABLE-CURRENT';
        const listed = async () => {
          const ex = expect2xx(t, await actor.client.get('/pools'), R, 'GET /pools');
          return { ex, pool: t.expect.schema(ex, PoolsList, R).pools.find((p) => p.id === dry) };
        };
        const [fiatCurrency, cryptoCurrency] = dry.split('-');
        // The list read on both sides of the quote: a state that changed meanwhile would show as two different reads.
        const before = await listed();
        const quote = await actor.client.post(poolPath(dry, '/quote'), quoteBody(t, { type: 'firm', fiatCurrency, cryptoCurrency }), { retry: false });
        const after = await listed();
        if (!before.pool || !after.pool)
          t.unverified(`GET /pools does not list the dry pool ${dry} for ${actor.partner.name} (not entitled to it?): its available flag cannot be read`);
        const q = quote.status === 200 ? UnavailableQuote.safeParse(quote.json) : undefined;
        if (!q?.success)
          t.unverified(
            `the dry pool's quote answered ${quote.status} ${quote.bodyText.slice(0, 120)}, not unavailable: the pool is not dry now (the quote check judges that)`,
          );
        t.observe('pools-dry-pool-listed', { before: before.pool.available, after: after.pool.available, reason: q.data.unavailableReason });
        // A dry pool is out of liquidity: it reads available false. Whether an engine or rate outage makes the pool itself
        // unavailable is not said ("available (boolean, current state only)"): that reading is the target's, observed.
        if (q.data.unavailableReason !== 'pool_dry')
          t.unverified(
            `the profile's dry pool ${dry} answers ${q.data.unavailableReason}, not pool_dry: whether a pool unavailable for that reason reads available false is not shown (GET /pools read ${after.pool.available})`,
          );
        // Both reads true around an unavailable quote: the list contradicts the pool's state. One of them: it may have moved.
        if (before.pool.available !== after.pool.available)
          t.unverified(
            `GET /pools read ${dry} available ${before.pool.available}, then ${after.pool.available}, around its unavailable quote: the pool's state moved`,
          );
        t.expect.equal(after.pool.available, false, `GET /pools shows ${dry} available false while its quotes answer ${q.data.unavailableReason}`, {
          requirement: R,
          exchange: after.ex,
        });
      },
    }),
    check({
      name: 'a quote without cryptoNetwork is on tron',
      requirements: ['POOLS-QUOTE-NETWORK-DEFAULT-TRON'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-QUOTE-NETWORK-DEFAULT-TRON';
        const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', cryptoNetwork: undefined, destNetwork: undefined }), {
          retry: false,
        });
        if (ex.status === 200 && ex.json?.available === false)
          t.unverified(`the main pool is unavailable on the default network (${ex.json?.unavailableReason}): no stored quote shows which network was taken`);
        if (ex.status === 400) {
          t.observe('pools-default-network-refused', ex.json?.code, 'the target refused the default network for this pool and address');
          t.unverified(
            'the target refuses a quote on the default network for the profile quote (which network pairs with which pool is not shown): no stored quote shows the default',
          );
        }
        expect2xx(t, ex, R, 'a quote without cryptoNetwork');
        const q = t.expect.schema(ex, FirmQuote, R);
        const read = expect2xx(t, await actor.client.get(quotePath(q.quoteId)), R);
        t.expect.equal(t.expect.schema(read, StoredQuote, R).cryptoNetwork, 'tron', 'cryptoNetwork defaults to tron', { requirement: R, exchange: read });
      },
    }),
    check({
      name: 'a firm quote on cryptoNetwork ethereum, bsc, polygon or solana is stored with that network',
      requirements: ['POOLS-QUOTE-NETWORK-VALUES'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-QUOTE-NETWORK-VALUES';
        const open: string[] = [];
        for (const network of OTHER_NETWORKS) {
          const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', cryptoNetwork: network, destNetwork: undefined }), {
            retry: false,
          });
          // Which network pairs with which pool and address is not shown: a refusal or an unavailable route leaves the value unjudged.
          if (ex.status === 400 || (ex.status === 200 && ex.json?.available === false)) {
            t.observe('pools-network-not-quoted', { network, status: ex.status, code: ex.json?.code, reason: ex.json?.unavailableReason });
            open.push(`${network} (${ex.status === 400 ? `400 ${ex.json?.code}` : `unavailable: ${ex.json?.unavailableReason}`})`);
            continue;
          }
          const q = t.expect.schema(expect2xx(t, ex, R, `a firm quote on ${network}`), FirmQuote, R);
          const read = expect2xx(t, await actor.client.get(quotePath(q.quoteId)), R);
          t.expect.equal(t.expect.schema(read, StoredQuote, R).cryptoNetwork, network, `the stored quote is on ${network}, the network asked for`, {
            requirement: R,
            exchange: read,
          });
        }
        if (open.length) t.unverified(`the profile quote was not quoted on ${open.join(', ')}: which network pairs with which pool and address is not shown`);
      },
    }),
    check({
      name: 'a quote body missing side, fiatCurrency, cryptoCurrency or amount gives 400',
      requirements: ['POOLS-QUOTE-BODY-REQUIRED-400', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        for (const field of ['side', 'fiatCurrency', 'cryptoCurrency', 'amount']) {
          const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', [field]: undefined }), { retry: false });
          expectPoolsError(t, ex, 400, { requirement: 'POOLS-QUOTE-BODY-REQUIRED-400' });
        }
      },
    }),
    check({
      name: "destNetwork from supportedNetworks is accepted; a non-EVM destNetwork, or an EVM one outside the pool's list, gives 400",
      requirements: ['POOLS-QUOTE-DESTNETWORK-ALLOWLIST', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-QUOTE-DESTNETWORK-ALLOWLIST';
        const { cap } = await readCapabilities(t, actor, R);
        const allowed = cap.supportedNetworks[0];
        if (!allowed) t.unverified(`the main pool ${mainPool(t)} lists no supportedNetworks: no allowed destNetwork to quote with`);
        const ok = expect2xx(
          t,
          await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', destNetwork: allowed }), { retry: false }),
          R,
          `a quote with destNetwork ${allowed}`,
        );
        t.expect.schema(ok, FirmQuote, R);
        for (const bad of ['solana', 'tron']) {
          if (cap.supportedNetworks.includes(bad)) continue;
          const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', destNetwork: bad }), { retry: false });
          expectPoolsError(t, ex, 400, { requirement: R });
        }
        // An EVM chain is not enough: the allowlist is the pool's.
        const outside = EVM_NETWORKS.find((n) => !cap.supportedNetworks.map((x) => x.toLowerCase()).includes(n));
        if (!outside) t.unverified(`the main pool lists every EVM network rampart knows (${EVM_NETWORKS.join(', ')}): none outside its list to send`);
        const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', destNetwork: outside }), { retry: false });
        t.expect.that(ex.status === 400, `destNetwork ${outside}, an EVM network outside supportedNetworks (${cap.supportedNetworks.join(', ')}), gives 400`, {
          requirement: R,
          expected: 400,
          actual: ex.status,
          exchange: ex,
        });
        expectPoolsError(t, ex, 400, { requirement: R });
      },
    }),
    check({
      name: 'an on_ramp quote without destAddress gives 400',
      requirements: ['POOLS-ADDR-REQUIRED-ON-RAMP-400', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        for (const type of ['firm', 'indicative']) {
          const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type, destAddress: undefined }), { retry: false });
          expectPoolsError(t, ex, 400, { requirement: 'POOLS-ADDR-REQUIRED-ON-RAMP-400' });
        }
      },
    }),
    check({
      name: 'a destAddress that is not 0x + 40 hex gives 400',
      requirements: ['POOLS-ADDR-FORMAT-400', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const hex = poolsProfile(t).quote.destAddress.slice(2).toLowerCase();
        for (const bad of [`0x${hex.slice(0, 39)}`, `0x${hex}0`, hex, `0x${hex.slice(0, 39)}g`]) {
          const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', destAddress: bad }), { retry: false });
          expectPoolsError(t, ex, 400, { requirement: 'POOLS-ADDR-FORMAT-400' });
        }
      },
    }),
    check({
      name: 'the delivery address is the one locked at quote time, never the transact body',
      requirements: ['POOLS-ADDR-LOCKED-AT-QUOTE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-ADDR-LOCKED-AT-QUOTE';
        const locked = poolsProfile(t).quote.destAddress;
        const { quote } = await createFirmQuote(t, actor, R);
        const path = poolPath(mainPool(t), '/transact');
        let ex = await actor.client.post(path, { quoteId: quote.quoteId, destAddress: otherAddress(locked) }, { idempotencyKey: true, retry: false });
        // The body is { quoteId } only: a target may refuse the extra field (400) or ignore it; either way the address stays the quoted one.
        if (ex.status === 400) {
          expectPoolsError(t, ex, 400, { requirement: R });
          t.observe('pools-transact-extra-destAddress', 'refused with 400');
          ex = await actor.client.post(path, { quoteId: quote.quoteId }, { idempotencyKey: true });
        } else {
          t.observe('pools-transact-extra-destAddress', 'ignored');
        }
        expect2xx(t, ex, R, 'transact');
        const made = t.expect.schema(ex, TransactResponse, R);
        const trade = await readTrade(t, actor, made.transactId, R);
        // Where the trade's delivery address shows is not documented: judge every place it appears, and say so when it appears nowhere.
        const exposed = [exposedAddress(ex.json), exposedAddress(trade)].filter((a): a is string => a !== undefined);
        if (exposed.length === 0)
          t.unverified(
            'neither the transact answer nor the trade shows a destAddress (not documented there): the address the trade delivers to cannot be read',
          );
        for (const a of exposed) {
          t.expect.equal(a.toLowerCase(), locked.toLowerCase(), 'the trade delivers to the address locked at quote time', { requirement: R, exchange: ex });
        }
      },
    }),
    check({
      name: 'an indicative quote is not persisted: no handle it carries reads as a stored quote, transacts or rejects',
      requirements: ['POOLS-QUOTE-INDICATIVE-NOT-PERSISTED', 'POOLS-QUOTE-INDICATIVE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-QUOTE-INDICATIVE-NOT-PERSISTED';
        const ex = expect2xx(
          t,
          await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'indicative' })),
          'POOLS-QUOTE-INDICATIVE',
          'an indicative quote',
        );
        t.expect.schema(ex, IndicativeQuote, 'POOLS-QUOTE-INDICATIVE');
        // Any id-like value the answer carries (not the pool's) is a handle a persisted quote would be reached by: none may reach one.
        const body = (ex.json ?? {}) as Record<string, unknown>;
        const handles = Object.entries(body)
          .filter(([k, v]) => /id$/i.test(k) && k !== 'poolId' && typeof v === 'string' && v.length > 0)
          .map(([k, v]) => ({ field: k, id: v as string }));
        t.observe(
          'pools-indicative-handles',
          handles.map((h) => h.field),
        );
        for (const { field, id } of handles) {
          const read = await actor.client.get(quotePath(id));
          t.expect.that(
            read.status === 404 || read.status === 400,
            `GET /pools/quotes/{${field}} of an indicative quote finds no stored quote (404, or 400 for an id of another format)`,
            { requirement: R, actual: read.status, exchange: read },
          );
          const tx = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: id }, { idempotencyKey: true, retry: false });
          t.expect.that(tx.status >= 400 && tx.status < 500, `an indicative quote cannot be transacted (transact with its ${field} is refused)`, {
            requirement: R,
            actual: `${tx.status} ${tx.bodyText.slice(0, 200)}`,
            exchange: tx,
          });
          const rej = await actor.client.post(quotePath(id, '/reject'), undefined, { retry: false });
          t.expect.that(rej.status >= 400 && rej.status < 500, `an indicative quote cannot be rejected (reject of its ${field} is refused)`, {
            requirement: R,
            actual: `${rej.status} ${rej.bodyText.slice(0, 200)}`,
            exchange: rej,
          });
        }
        // Without a handle (the documented shape: no quoteId) there is nothing to read, transact or reject by.
        t.expect.that(
          handles.every((h) => h.field !== 'quoteId'),
          'an indicative quote carries no quoteId to transact or reject',
          { requirement: R, exchange: ex },
        );
      },
    }),
    check({
      name: 'a quote needs no Idempotency-Key, and a reject neither a body nor a key',
      requirements: ['POOLS-QUOTE-NO-IDEMPOTENCY-KEY'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-QUOTE-NO-IDEMPOTENCY-KEY';
        const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm' }), { retry: false });
        t.expect.equal(ex.request.idempotencyKey, undefined, 'the quote was sent without an Idempotency-Key', { requirement: R, exchange: ex });
        expect2xx(t, ex, R, 'a quote without an Idempotency-Key');
        const q = t.expect.schema(ex, FirmQuote, R);
        const rej = await actor.client.request({ method: 'POST', path: quotePath(q.quoteId, '/reject'), retry: false });
        t.expect.that(rej.request.idempotencyKey === undefined && !rej.request.bodyText, 'the reject was sent without a body or an Idempotency-Key', {
          requirement: R,
          exchange: rej,
        });
        expect2xx(t, rej, R, 'a reject without a body or an Idempotency-Key');
        t.expect.equal(t.expect.schema(rej, StoredQuote, R).status, 'rejected', 'the reject took effect', { requirement: R, exchange: rej });
      },
    }),
    check({
      name: 'an amount that is not a decimal string gives 400',
      requirements: ['POOLS-QUOTE-AMOUNT-DECIMAL-400', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        // A JSON number, an exponent, a decimal comma, hexadecimal, letters: none is a decimal string.
        for (const amount of [100, '1e2', '10,50', '0x10', 'ten']) {
          const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', amount }), { retry: false });
          expectPoolsError(t, ex, 400, { requirement: 'POOLS-QUOTE-AMOUNT-DECIMAL-400' });
        }
      },
    }),
    check({
      name: 'a side, type or cryptoNetwork outside its documented values, or a fiatCurrency that is not ISO 4217, gives 400',
      requirements: ['POOLS-QUOTE-ENUMS-400', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        for (const bad of [{ side: 'buy' }, { type: 'limit' }, { cryptoNetwork: 'bitcoin' }, { fiatCurrency: 'EURO' }]) {
          const ex = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, bad), { retry: false });
          expectPoolsError(t, ex, 400, { requirement: 'POOLS-QUOTE-ENUMS-400' });
        }
      },
    }),
  ],
});
