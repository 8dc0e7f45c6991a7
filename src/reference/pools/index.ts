// The pools service of the embedded target: one world, every area's routes
// and seeded faults. Both pools bases share this router; Req.env tells them
// apart (test keys only on sandbox).
//
// Not shown — chosen:
// - GET /pools lists the partner's entitled pools (allowedPools that exist), each with its current availability.
// - Entitled routes check, in order: pools_not_enabled, pool_access_suspended, kyc_not_approved, unknown pool (404), pool_not_allowed.
// - Quote validation errors are all reported at once: messages joined with "; ", the code of the first (parameter_missing, parameter_invalid, dest_address_required, invalid_address, invalid_address_checksum, unsupported_network, currency_mismatch, order_size_out_of_bounds).
// - A firm quote is created with 201; indicative and unavailable quotes answer 200. Quotes also carry poolId, side, cryptoNetwork, fiatAmount, cryptoAmount and type.
// - The default cryptoNetwork tron is accepted with an EVM destAddress (the spec requires the EVM format for every on_ramp quote).
// - Order bounds are checked at quote time in USDT equivalent (400 order_size_out_of_bounds).
// - Transact on an already-consumed quote with a new Idempotency-Key answers 200 with the existing trade (endpoint rule 3, chosen over the state table's 409).
// - Transact answers 201 with the whole trade; a replay with the same key and body answers the original response.
// - Extra transact body fields are ignored (the address always comes from the quote); a quote of another pool gives 400 quote_pool_mismatch.
// - Enabled off_ramp transact gives 402 insufficient_crypto_balance: the sandbox has no crypto deposits.
// - The velocity cap counts the fiat amount of the partner's trades created in the last 24 h; it is checked at transact (429 velocity_cap_exceeded).
// - 402 and 501 use type invalid_request and server_error (the spec names no type for them).
// - The settlement poll of a quote without a trade gives 404 trade_not_found; a reserved trade moves to the outcome chosen by the sandbox helper (default settled); returned goes through settled first and is discovered by the next poll.
// - failed and released unwind the reservation with a reservation_release ledger credit.
// - Trades: no cursor is malformed (the spec fixes no format): one never handed out yields an empty page; unknown status or side filters give 400.
// - Ledger: { data: [{ id, type, currency, amount (signed), balanceAfter, transactId, quoteId, createdAt }], nextCursor, hasMore }, newest first, limit 1–100 (default 50), cursor = entry id.
// - Funding: iban is null for partners the profile declares ibanProvisioned: false; instructions is a string.
// - Tier: the profile's tier of the partner (default "standard"), the same in capabilities and balance.
// - A revoked key (revokedSecretKey) is an invalid key: 401 api_key_revoked. Live keys (liveSecretKey, or issued for reference.poolsLiveKeysFor) work on production only.
// - A pool's availability is its catalogue state (the profile's dry pool is pool_dry) unless the sandbox helper set another for the calling partner; GET /pools, quotes and balance follow it.
// - Pools webhooks use the Gate recipe: Gate-Signature t=,v1= HMAC-SHA256 over t + "." + body, X-Gate-Timestamp/-Event-Id/-Event-Type headers, the Gate retry schedule and dead-letter threshold; envelope { eventId, type, createdAt, data: Trade }.
// - Sandbox helpers: POST {helperPrefix}/trades/{quoteId}/outcome { outcome }, PUT {helperPrefix}/webhook-settings { webhook_url },
//   POST {helperPrefix}/pools/{poolId}/state { state } (for the calling partner) and POST {helperPrefix}/payins { amount } (payin_credit); secret key, sandbox base only.
// - The pools routes have no request-rate limit.
// Each of these the dialect worlds may read otherwise (src/model/openPoints/pools): wire.ts, eventWire.ts, dialectRoutes.ts
// and the areas' choiceOf reads take the other documented choices.
import type { Profile } from '../../profile/schema.js';
import { CLOCK_FAULTS, type Clock } from '../kit/clock.js';
import type { ActiveFaults, FaultDef } from '../kit/faults.js';
import { Router } from '../kit/http.js';
import type { WebhookOutbox } from '../kit/outbox.js';
import { area as authErrors, withErrorFaults } from './authErrors.js';
import { area as balanceFunding } from './balanceFunding.js';
import { withDialectRoutes } from './dialectRoutes.js';
import { area as discovery } from './discovery.js';
import { area as quotes } from './quotes.js';
import { area as sandboxHelpers } from './sandboxHelpers.js';
import { area as storedQuotes } from './storedQuotes.js';
import { area as trades } from './trades.js';
import { area as transact } from './transact.js';
import { BLIND_POOLS_FAULTS } from './blindFaults.js';
import { RACE_POOLS_FAULTS } from './raceFaults.js';
import { createPoolsWorld, type PoolsArea, type PoolsWorld } from './world.js';

export const POOLS_AREAS: PoolsArea[] = [authErrors, discovery, quotes, transact, storedQuotes, trades, balanceFunding, sandboxHelpers];

/** Every seeded fault of the pools areas (each breaks exactly one documented rule). */
export const POOLS_FAULTS: FaultDef[] = [
  ...POOLS_AREAS.flatMap((a) => a.faults),
  ...CLOCK_FAULTS.filter((f) => f.service === 'pools'),
  ...BLIND_POOLS_FAULTS,
  ...RACE_POOLS_FAULTS,
];

export function createPoolsService(deps: { profile: Profile; faults: ActiveFaults; outbox: WebhookOutbox; clock: Clock }): {
  router: Router;
  world: PoolsWorld;
} {
  const world = createPoolsWorld(deps);
  const router = withDialectRoutes(withErrorFaults(new Router(), deps.faults), world);
  for (const a of POOLS_AREAS) a.register(router, world);
  return { router, world };
}
