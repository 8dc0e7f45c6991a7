// POST /pools/{id}/quote: firm (persisted, about 15 s, single use),
// indicative (price only, not persisted) or unavailable (200, available
// false). The delivery address is validated and locked here.
import { POOLS_LIMITS } from '../../model/limits.js';
import { isValidEvmAddress } from '../../model/eip55.js';
import type { ActiveFaults } from '../kit/faults.js';
import { HttpError, jsonObject, type Reply } from '../kit/http.js';
import { div, format, isDecimal, lessBps, mul, parse } from './money.js';
import { unavailableReason } from './poolStates.js';
import { choiceOf } from '../kit/dialect.js';
import { orderBounds, PRICING } from './pricing.js';
import { statedExpiresAtMs, type Caller, type PoolDef, type PoolsArea, type PoolsWorld, type QuoteRecord, type Side } from './world.js';

const NETWORKS: readonly string[] = POOLS_LIMITS.cryptoNetworks;
const EVM_CHAINS: readonly string[] = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'base', 'avalanche'];
/** Faults pools-network-<value>-stored-<other>: a quote on that network is stored (and traded) on another. */
const MISSTORED: Record<string, string> = { ethereum: 'tron', bsc: 'ethereum', polygon: 'ethereum', solana: 'ethereum' };
const storedNetwork = (network: string, f: { has(n: string): boolean }) =>
  MISSTORED[network] && f.has(`pools-network-${network}-stored-${MISSTORED[network]}`) ? MISSTORED[network]! : network;
const NETWORK_FAULTS = Object.entries(MISSTORED).map(([n, as]) => ({
  name: `pools-network-${n}-stored-${as}`,
  service: 'pools' as const,
  requirements: ['POOLS-QUOTE-NETWORK-VALUES'],
  description: `A quote on cryptoNetwork ${n} is stored (and traded) as ${as}.`,
  suite: 'conformance' as const,
}));

interface Priced {
  fiatAmount: string;
  cryptoAmount: string;
  rate: string;
  usdtEquivalent: bigint;
}

/** Output per input, all-in: on_ramp crypto per fiat, off_ramp fiat per crypto. */
function price(pool: PoolDef, side: Side, amount: string, spreadOnlyRate: boolean): Priced {
  const bps = spreadOnlyRate ? PRICING.spreadBps : PRICING.spreadBps + PRICING.feeBps;
  const mid = parse(pool.mid);
  const usdtPerFiat = parse('1.0850');
  if (side === 'on_ramp') {
    const rate = lessBps(mid, bps);
    const rateStr = format(rate, 10);
    const fiat = parse(amount);
    const crypto = mul(fiat, parse(rateStr));
    return { fiatAmount: format(fiat, 2), cryptoAmount: format(crypto, pool.cryptoDecimals), rate: rateStr, usdtEquivalent: mul(fiat, usdtPerFiat) };
  }
  const rate = lessBps(div(parse('1'), mid), bps);
  const rateStr = format(rate, 10);
  const crypto = parse(amount);
  const fiat = mul(crypto, parse(rateStr));
  return { fiatAmount: format(fiat, 2), cryptoAmount: format(crypto, pool.cryptoDecimals), rate: rateStr, usdtEquivalent: mul(fiat, usdtPerFiat) };
}

function activeQuotes(world: PoolsWorld): number {
  let n = 0;
  for (const q of world.quotes.values()) if (world.quoteStatus(q) === 'active') n++;
  return n;
}

export const area: PoolsArea = {
  name: 'quotes',
  faults: [
    {
      name: 'pools-dest-address-optional',
      service: 'pools',
      requirements: ['POOLS-ADDR-REQUIRED-ON-RAMP-400'],
      description: 'An on_ramp quote without destAddress is accepted.',
      suite: 'conformance',
    },
    {
      name: 'pools-address-format-unchecked',
      service: 'pools',
      requirements: ['POOLS-ADDR-FORMAT-400'],
      description: 'destAddress is not checked for 0x + 40 hex.',
      suite: 'conformance',
    },
    {
      name: 'pools-eip55-unchecked',
      service: 'pools',
      requirements: ['POOLS-ADDR-EIP55-INVALID-400'],
      description: 'A mixed-case destAddress with a wrong EIP-55 checksum is accepted.',
      suite: 'conformance',
    },
    {
      name: 'pools-eip55-rejects-valid',
      service: 'pools',
      requirements: ['POOLS-ADDR-EIP55-VALID'],
      description: 'Every mixed-case destAddress is refused, even a correct EIP-55 checksum.',
      suite: 'conformance',
    },
    {
      name: 'pools-single-case-address-refused',
      service: 'pools',
      requirements: ['POOLS-ADDR-SINGLE-CASE'],
      description: 'All-lowercase and all-uppercase addresses are refused as failing EIP-55.',
      suite: 'conformance',
    },
    {
      name: 'pools-default-network-ethereum',
      service: 'pools',
      requirements: ['POOLS-QUOTE-NETWORK-DEFAULT-TRON'],
      description: 'cryptoNetwork defaults to ethereum instead of tron.',
      suite: 'conformance',
    },
    {
      name: 'pools-dest-network-unchecked',
      service: 'pools',
      requirements: ['POOLS-QUOTE-DESTNETWORK-ALLOWLIST'],
      description: 'destNetwork outside supportedNetworks is accepted.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-type-default-indicative',
      service: 'pools',
      requirements: ['POOLS-QUOTE-FIRM-DEFAULT'],
      description: 'A quote without type is indicative instead of firm.',
      suite: 'conformance',
    },
    {
      name: 'pools-indicative-has-quote-id',
      service: 'pools',
      requirements: ['POOLS-QUOTE-INDICATIVE'],
      description: 'Indicative quotes carry a quoteId.',
      suite: 'conformance',
    },
    {
      name: 'pools-dry-pool-409',
      service: 'pools',
      requirements: ['POOLS-QUOTE-UNAVAILABLE'],
      description: 'A dry pool answers 409 instead of 200 with available false.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-bps-as-strings',
      service: 'pools',
      requirements: ['POOLS-QUOTE-FIRM-SHAPE'],
      description: 'spreadBps and feeBps of a firm quote are strings.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-required-field-unchecked',
      service: 'pools',
      requirements: ['POOLS-QUOTE-BODY-REQUIRED-400'],
      description: 'A quote without amount is accepted (amount defaults to 100).',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-ttl-30s',
      service: 'pools',
      requirements: ['POOLS-TTL-EXPIRES-AT', 'POOLS-TTL-UNDER-LOAD', 'POOLS-TTL-UNDER-NETWORK-FAULTS'],
      description: 'Firm quotes live 30 s instead of about 15 s.',
      suite: 'conformance',
    },
    {
      name: 'pools-ttl-drifts-under-load',
      service: 'pools',
      requirements: ['POOLS-TTL-UNDER-LOAD'],
      description: 'While 5 or more firm quotes are active, new quotes live 30 s instead of about 15 s (only load shows it).',
      suite: 'load',
    },
    {
      name: 'pools-quote-ttl-60s',
      service: 'pools',
      requirements: ['POOLS-TTL-EXPIRES-AT', 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409', 'POOLS-TTL-STATUS-EXPIRED'],
      description: 'Firm quotes live 60 s instead of about 15 s (whatever the profile declares).',
      suite: 'conformance',
    },
    {
      name: 'pools-rate-spread-only',
      service: 'pools',
      requirements: ['POOLS-TRADES-RATE-OUTPUT-PER-INPUT'],
      description:
        'rate and quotedRate carry the spread only, not the fee (the amounts stay all-in): fiatAmount × quotedRate overstates cryptoAmount by the fee.',
      suite: 'conformance',
    },
    {
      name: 'pools-rate-input-per-output',
      service: 'pools',
      requirements: ['POOLS-TRADES-RATE-OUTPUT-PER-INPUT', 'POOLS-QUOTE-RATE'],
      description: 'rate is quoted input per output (fiat per crypto) for on_ramp.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-rate-rounded',
      service: 'pools',
      requirements: ['POOLS-QUOTE-RATE'],
      description: "A quote's rate is cut to 4 decimals while its amounts keep the full rate: fiatAmount × rate misses cryptoAmount.",
      suite: 'conformance',
    },
    {
      name: 'pools-fiat-amount-whole-units',
      service: 'pools',
      requirements: ['POOLS-QUOTE-ON-RAMP-AMOUNT'],
      description: 'An on_ramp amount is cut to whole fiat units (100.37 is quoted as 100.00).',
      suite: 'conformance',
    },
    {
      name: 'pools-off-ramp-rate-inverted',
      service: 'pools',
      requirements: ['POOLS-QUOTE-OFF-RAMP-ARITHMETIC'],
      description: 'An off_ramp quote states its rate crypto per fiat (input per output) while its fiatAmount is right.',
      suite: 'conformance',
    },
    {
      name: 'pools-unavailable-reason-always-dry',
      service: 'pools',
      requirements: ['POOLS-QUOTE-UNAVAILABLE'],
      description: 'Every unavailable pool answers unavailableReason pool_dry, whatever the reason (engine_unavailable, rate_unavailable).',
      suite: 'conformance',
    },
    {
      name: 'pools-indicative-persisted',
      service: 'pools',
      requirements: ['POOLS-QUOTE-INDICATIVE-NOT-PERSISTED'],
      description: 'Indicative quotes are stored under an id (field id) that reads as a stored quote and can be transacted.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-requires-idempotency-key',
      service: 'pools',
      requirements: ['POOLS-QUOTE-NO-IDEMPOTENCY-KEY'],
      description: 'A quote without an Idempotency-Key gives 400.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-amount-lenient',
      service: 'pools',
      requirements: ['POOLS-QUOTE-AMOUNT-DECIMAL-400'],
      description: 'amount is read with Number(): a JSON number or an exponent (1e2) is accepted.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-type-unknown-firm',
      service: 'pools',
      requirements: ['POOLS-QUOTE-ENUMS-400'],
      description: 'An unknown quote type is taken as firm instead of 400.',
      suite: 'conformance',
    },
    {
      name: 'pools-order-bounds-unchecked',
      service: 'pools',
      requirements: ['POOLS-ORDER-BOUNDS'],
      description: 'minOrderUsdt and maxOrderUsdt are never enforced.',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-exposes-provider',
      service: 'pools',
      requirements: ['POOLS-OMITTED-INTERNALS'],
      description: 'A firm quote names its liquidity provider and route (liquidityProvider, routing).',
      suite: 'conformance',
    },
    {
      name: 'pools-dest-network-any-evm',
      service: 'pools',
      requirements: ['POOLS-QUOTE-DESTNETWORK-ALLOWLIST'],
      description: "destNetwork is checked only for being an EVM chain: one outside the pool's supportedNetworks is accepted.",
      suite: 'conformance',
    },
    ...NETWORK_FAULTS,
  ],
  register(router, world) {
    const f = world.faults;
    router.on('POST', '/pools/:id/quote', (req) => {
      const { caller, pool } = world.authEntitled(req, req.params.id!);
      if (f.has('pools-quote-requires-idempotency-key') && typeof req.headers['idempotency-key'] !== 'string')
        throw new HttpError(400, 'Idempotency-Key header is required.', 'idempotency_key_required');
      const asked = readQuoteBody(world, pool, jsonObject(req));
      // Unavailable routes answer 200 with available false, never a lock (rule 5).
      const reason = unavailableReason(world, caller, pool);
      if (reason) {
        if (f.has('pools-dry-pool-409')) throw new HttpError(409, `Pool ${pool.id} is dry.`, 'pool_dry');
        return {
          status: 200,
          body: { available: false, executable: false, unavailableReason: f.has('pools-unavailable-reason-always-dry') ? 'pool_dry' : reason, poolId: pool.id },
        };
      }
      return quoteAnswer(world, caller, pool, asked);
    });
  },
};

/** What a quote request asks for, as sent (read and checked by readQuoteBody). */
interface QuoteAsk {
  side: unknown;
  amount: unknown;
  type: unknown;
  network: unknown;
  dest: unknown;
  destNetwork: unknown;
}

/** The quote request's body checked field by field: every problem found, one 400 naming them (the first one's code). */
function readQuoteBody(world: PoolsWorld, pool: PoolDef, b: Record<string, any>): QuoteAsk {
  const f = world.faults;
  const bounds = orderBounds(world.profile);
  const errors: { message: string; code: string }[] = [];
  const bad = (message: string, code = 'invalid_request') => errors.push({ message, code });

  const side = b.side;
  if (side === undefined) bad('side is required', 'parameter_missing');
  else if (side !== 'on_ramp' && side !== 'off_ramp') bad('side must be on_ramp or off_ramp', 'parameter_invalid');
  for (const k of ['fiatCurrency', 'cryptoCurrency'] as const) {
    if (b[k] === undefined) bad(`${k} is required`, 'parameter_missing');
    else if (typeof b[k] !== 'string') bad(`${k} must be a string`, 'parameter_invalid');
  }
  if (typeof b.fiatCurrency === 'string' && b.fiatCurrency.toUpperCase() !== pool.fiatCurrency)
    bad(`fiatCurrency must be ${pool.fiatCurrency} on pool ${pool.id}`, 'currency_mismatch');
  if (typeof b.cryptoCurrency === 'string' && b.cryptoCurrency.toUpperCase() !== pool.cryptoCurrency)
    bad(`cryptoCurrency must be ${pool.cryptoCurrency} on pool ${pool.id}`, 'currency_mismatch');
  let amount = b.amount;
  if (amount === undefined && f.has('pools-quote-required-field-unchecked')) amount = '100.00';
  // The lenient fault reads the amount as a JavaScript number (1e2, 100).
  if (
    f.has('pools-quote-amount-lenient') &&
    (typeof amount === 'string' || typeof amount === 'number') &&
    Number.isFinite(Number(amount)) &&
    Number(amount) > 0
  )
    amount = String(Number(amount));
  if (amount === undefined) bad('amount is required', 'parameter_missing');
  else if (typeof amount !== 'string' || !/^-?\d+(\.\d+)?$/.test(amount)) bad('amount must be a decimal string', 'parameter_invalid');
  // A decimal string the spec allows, but zero, negative or beyond any order: outside the pool's order bounds.
  else if (!isDecimal(amount) || parse(amount) <= 0n)
    bad(`The order is outside ${bounds.minOrderUsdt}–${bounds.maxOrderUsdt} USDT equivalent for pool ${pool.id}.`, 'order_size_out_of_bounds');
  let type = b.type ?? (f.has('pools-quote-type-default-indicative') ? 'indicative' : 'firm');
  if (f.has('pools-quote-type-unknown-firm') && type !== 'indicative') type = 'firm';
  if (type !== 'firm' && type !== 'indicative') bad('type must be firm or indicative', 'parameter_invalid');
  const network = b.cryptoNetwork ?? (f.has('pools-default-network-ethereum') ? 'ethereum' : 'tron');
  if (typeof network !== 'string' || !NETWORKS.includes(network)) bad(`cryptoNetwork must be one of ${NETWORKS.join(', ')}`, 'parameter_invalid');
  const dest = b.destAddress;
  checkDestAddress(f, side, dest, bad);
  const destNetwork = b.destNetwork;
  if (destNetwork !== undefined && destNetwork !== null) {
    // Fault pools-dest-network-any-evm: any EVM chain passes, the pool's own list is not consulted.
    const anyEvm = f.has('pools-dest-network-any-evm') && typeof destNetwork === 'string' && EVM_CHAINS.includes(destNetwork);
    if (typeof destNetwork !== 'string' || (!pool.supportedNetworks.includes(destNetwork) && !anyEvm && !f.has('pools-dest-network-unchecked'))) {
      bad(`destNetwork must be one of ${pool.supportedNetworks.join(', ')}`, 'unsupported_network');
    }
  }
  // Reading (pools.quote.validationJoin 'first-only'): the first problem found answers alone.
  const shown = choiceOf(world.profile, 'pools.quote.validationJoin') === 'first-only' ? errors.slice(0, 1) : errors;
  if (errors.length > 0) throw new HttpError(400, shown.map((e) => e.message).join('; '), errors[0]!.code);
  return { side, amount, type, network, dest, destNetwork };
}

/** destAddress: required for on_ramp, 0x and 40 hex digits, its EIP-55 checksum kept (or bent by a seeded fault). */
function checkDestAddress(f: ActiveFaults, side: unknown, dest: unknown, bad: (message: string, code?: string) => void): void {
  if (dest === undefined || dest === null) {
    if (side === 'on_ramp' && !f.has('pools-dest-address-optional')) bad('destAddress is required for on_ramp', 'dest_address_required');
  } else if (typeof dest !== 'string') bad('destAddress must be a string', 'invalid_address');
  else {
    const v = isValidEvmAddress(dest);
    const body = dest.slice(2);
    const singleCase = body === body.toLowerCase() || body === body.toUpperCase();
    if (!v.ok && v.reason?.startsWith('format') && !f.has('pools-address-format-unchecked'))
      bad('destAddress must be 0x followed by 40 hex digits', 'invalid_address');
    else if (!v.ok && v.reason?.startsWith('checksum') && !f.has('pools-eip55-unchecked'))
      bad('destAddress fails its EIP-55 checksum', 'invalid_address_checksum');
    else if (v.ok && !singleCase && f.has('pools-eip55-rejects-valid')) bad('destAddress fails its EIP-55 checksum', 'invalid_address_checksum');
    else if (v.ok && singleCase && f.has('pools-single-case-address-refused')) bad('destAddress fails its EIP-55 checksum', 'invalid_address_checksum');
  }
}

/** A priced quote: indicative (price only), or firm (stored, single use); 400 outside the pool's order bounds. */
function quoteAnswer(world: PoolsWorld, caller: Caller, pool: PoolDef, asked: QuoteAsk): Reply {
  const f = world.faults;
  const { side, type, network, dest, destNetwork } = asked;
  let { amount } = asked;
  // The whole-units fault cuts an on_ramp amount to whole fiat units before pricing.
  if (f.has('pools-fiat-amount-whole-units') && side === 'on_ramp') amount = (amount as string).split('.')[0];
  const priced = price(pool, side as Side, amount as string, false);
  // The spread-only fault reports the rate before the fee while the amounts stay all-in.
  if (f.has('pools-rate-spread-only')) priced.rate = price(pool, side as Side, amount as string, true).rate;
  if (f.has('pools-rate-input-per-output') && side === 'on_ramp') priced.rate = format(div(parse('1'), parse(priced.rate)), 10);
  if (f.has('pools-off-ramp-rate-inverted') && side === 'off_ramp') priced.rate = format(div(parse('1'), parse(priced.rate)), 10);
  if (f.has('pools-quote-rate-rounded')) priced.rate = format(parse(priced.rate), 4);
  const bounds = orderBounds(world.profile);
  const outside = priced.usdtEquivalent < parse(bounds.minOrderUsdt) || priced.usdtEquivalent > parse(bounds.maxOrderUsdt);
  if (outside && !f.has('pools-order-bounds-unchecked')) {
    throw new HttpError(
      400,
      `The order is outside ${bounds.minOrderUsdt}–${bounds.maxOrderUsdt} USDT equivalent for pool ${pool.id}.`,
      'order_size_out_of_bounds',
    );
  }
  const bps = (n: number) => (f.has('pools-quote-bps-as-strings') ? String(n) : n);
  // Reading (pools.quote.fields 'shown-only'): the answer carries the shown fields alone, no amounts, pool, side, network or type.
  const shownOnly = choiceOf(world.profile, 'pools.quote.fields') === 'shown-only';
  const extra = shownOnly
    ? {}
    : { poolId: pool.id, side, cryptoNetwork: network, fiatAmount: world.money(priced.fiatAmount), cryptoAmount: world.money(priced.cryptoAmount) };
  const common = { ...extra, rate: world.money(priced.rate), spreadBps: bps(PRICING.spreadBps), feeBps: bps(PRICING.feeBps) };
  const typeField = shownOnly ? {} : { type: type as string };
  if (type === 'indicative') {
    // The persisted fault stores the indicative quote like a firm one and hands out its id.
    const stored = f.has('pools-indicative-persisted')
      ? { id: storeQuote(world, caller, pool, side as Side, network as string, destNetwork, dest, priced).quoteId }
      : {};
    return {
      status: 200,
      body: {
        ...common,
        available: true,
        executable: false,
        ...typeField,
        ...stored,
        ...(f.has('pools-indicative-has-quote-id') ? { quoteId: world.newId('pq') } : {}),
      },
    };
  }
  const q = storeQuote(world, caller, pool, side as Side, network as string, destNetwork, dest, priced);
  const internals = f.has('pools-quote-exposes-provider') ? { liquidityProvider: 'engine-b', routing: 'direct' } : {};
  // Reading (pools.quote.firmStatus): 201 Created, or 200.
  return {
    status: choiceOf(world.profile, 'pools.quote.firmStatus') === '200' ? 200 : 201,
    body: { quoteId: q.quoteId, expiresAt: world.iso(statedExpiresAtMs(q, f)), ...common, available: true, executable: true, ...typeField, ...internals },
  };
}

/** A firm quote, persisted: single use, about 15 s. */
function storeQuote(
  world: PoolsWorld,
  caller: Caller,
  pool: PoolDef,
  side: Side,
  network: string,
  destNetwork: unknown,
  dest: unknown,
  priced: Priced,
): QuoteRecord {
  const f = world.faults;
  // A world of whole-second stamps keeps whole-second instants: createdAt and expiresAt are then exact.
  const now = world.stamp();
  let ttlS = f.has('pools-quote-ttl-60s') ? 60 : f.has('pools-quote-ttl-30s') ? 30 : (world.profile.reference?.quoteTtlSeconds ?? 15);
  if (f.has('pools-ttl-drifts-under-load') && activeQuotes(world) >= 5) ttlS = 30;
  const q: QuoteRecord = {
    quoteId: world.newId('pq'),
    partner: caller.partner.name,
    mode: caller.mode,
    poolId: pool.id,
    side,
    cryptoNetwork: storedNetwork(network, f),
    destNetwork: (destNetwork as string | undefined) ?? null,
    destAddress: (dest as string | undefined) ?? null,
    fiatAmount: priced.fiatAmount,
    cryptoAmount: priced.cryptoAmount,
    rate: priced.rate,
    spreadBps: PRICING.spreadBps,
    feeBps: PRICING.feeBps,
    createdAtMs: now,
    expiresAtMs: now + ttlS * 1000,
    consumedAtMs: null,
    rejectedAtMs: null,
  };
  world.quotes.set(q.quoteId, q);
  world.state(caller); // open the partner's books so the opening credit predates the quote
  return q;
}
