// The pools spec's passages that no requirement tests, each with its reviewed reason.
// (Anchors of tested passages live with their requirements in src/model/catalogue/pools/.)
import type { PassageCases } from './cases.js';

/** Open points the spec leaves open without saying "not shown". */
export const NOT_SHOWN: { quote: string; reason: string }[] = [
  {
    quote: 'Base addresses: `{pools_base_url}` (production) and `{pools_sandbox_base_url}` (sandbox).',
    reason: 'the addresses are placeholders: the profile declares both (pools.baseUrls), and the key-mode checks use each',
  },
];

/** Passages no request to the target can test, and why. */
export const NOT_TESTABLE: { quote: string; reason: string; unreachable?: true }[] = [
  { quote: 'Covers: the approved-partner pools liquidity service', reason: 'the scope of the document; each item it names is tested under its own section' },
  { quote: 'The first document covers the separate hosted ramp service.', reason: 'a pointer to the other spec (gate-api.md), no behaviour' },
  { quote: 'Open points are flagged inline.', reason: 'editorial convention of the document' },
  {
    quote: 'A headless liquidity API for approved partners who own their user experience.',
    reason: 'a product description: no request or answer it constrains',
  },
  {
    quote: 'It is gated early access, provisioned per partner by the operator.',
    reason: 'an operator process: the provisioned states reach rampart only through the profile (state, allowedPools, offRamp)',
  },
  { quote: 'It is not self-serve and not generally available.', reason: 'a commercial statement: no request or answer it constrains' },
  {
    quote: 'Access, KYC state, tier and entitled pools cannot be granted through the API.',
    reason: 'no documented route grants them, and the absence of an undocumented one cannot be proven from outside',

    unreachable: true,
  },
  { quote: 'Each ends in `/v1`.', reason: 'guaranteed by the profile schema (every base URL must end in /v1), not by an answer of the target' },
  { quote: 'Paths below are relative to it.', reason: 'how a client builds URLs: every check reaches the routes this way' },
  { quote: 'Rules:', reason: 'a label introducing the numbered rules, each anchored on its own' },
  {
    quote: 'Secret keys never go into browser code, query strings or logs.',
    reason: "the partner's obligation about its own code and logs; rampart itself never prints a key",
  },
  { quote: 'Branch on `code` and `type`, not on `message`.', reason: "the client's obligation (rampart's checks branch on status, code and type only)" },
  {
    quote: "Version is a single date carried in the specification's version field, currently `2026-05-25`.",
    reason: 'a field of the specification document, not of any response',
  },
  { quote: 'The URL carries `/v1`.', reason: 'guaranteed by the profile schema (base URLs end in /v1) and the client that joins paths to them' },
  {
    quote: 'Additive changes (new optional response fields, new enum members on documented types, new endpoints) can appear without a version bump',
    reason: "the client's obligation to tolerate them (rampart's schemas accept unknown fields); what may appear later cannot be tested now",
  },
  {
    quote: 'Breaking changes (removing or renaming a field, changing a type, narrowing behavior) are tied to a version change',
    reason: 'a release process and its announcements, outside the API',
  },
  {
    quote: 'The surface is early access and may change before general availability.',
    reason: 'a product-status statement: no request or answer it constrains',
  },
];

/** Anchored passages naming several cases: each case and the requirements asserting it (partial while one is unasserted). */
export const CASES: PassageCases[] = [
  {
    quote: '| sides | enabled sides: `on_ramp`, `off_ramp` |',
    cases: {
      'only on_ramp and off_ramp': ['POOLS-CAP-SIDES-ENUM'],
      'on_ramp, the supported flow': ['POOLS-CAP-SIDES-ENABLED'],
      'off_ramp where enabled': ['POOLS-CAP-SIDES-ENABLED'],
      'no off_ramp where not enabled': ['POOLS-CAP-SIDES-ENUM', 'POOLS-CAP-SIDES-ENABLED'],
    },
  },
  {
    quote: '| cryptoNetwork | string | no | `tron` (default)',
    cases: {
      'tron (default)': ['POOLS-QUOTE-NETWORK-DEFAULT-TRON'],
      ethereum: ['POOLS-QUOTE-NETWORK-VALUES'],
      bsc: ['POOLS-QUOTE-NETWORK-VALUES'],
      polygon: ['POOLS-QUOTE-NETWORK-VALUES'],
      solana: ['POOLS-QUOTE-NETWORK-VALUES'],
      'any other value 400': ['POOLS-QUOTE-ENUMS-400'],
    },
  },
  {
    quote: '| destNetwork | string | no | from the EVM allowlist in `supportedNetworks` |',
    cases: {
      'a network of supportedNetworks is accepted': ['POOLS-QUOTE-DESTNETWORK-ALLOWLIST'],
      'a non-EVM network gives 400': ['POOLS-QUOTE-DESTNETWORK-ALLOWLIST'],
      "an EVM network outside the pool's list gives 400": ['POOLS-QUOTE-DESTNETWORK-ALLOWLIST'],
    },
  },
  {
    quote: '| 404 | unknown or cross-tenant id; funding when balance gate is off |',
    cases: {
      'unknown quote, trade and transaction ids': ['POOLS-ERR-UNKNOWN-ID-404'],
      'unknown pool id': ['POOLS-CAP-UNKNOWN-POOL-404'],
      'cross-tenant id': ['POOLS-ERR-CROSS-TENANT-404'],
      'funding when the balance gate is off': ['POOLS-FUND-GATE-OFF-404'],
    },
  },
  {
    quote: '| 403 | codes: `pools_not_enabled`',
    cases: {
      pools_not_enabled: ['POOLS-AUTH-NOT-ENABLED-403'],
      pool_access_suspended: ['POOLS-AUTH-SUSPENDED-403'],
      kyc_not_approved: ['POOLS-AUTH-KYC-403'],
      pool_not_allowed: ['POOLS-AUTH-POOL-NOT-ALLOWED-403'],
      key_mode_mismatch: ['POOLS-AUTH-KEY-MODE-ENV-403'],
    },
  },
  {
    quote: '| 409 | quote expired, consumed or rejected',
    cases: {
      'quote expired': ['POOLS-TTL-TRANSACT-AFTER-EXPIRY-409'],
      'quote consumed': ['POOLS-TX-QUOTE-CONSUMED'],
      'quote rejected': ['POOLS-SQ-TRANSACT-REJECTED-409'],
      'reservation failed': {
        unasserted: 'what makes a reservation fail besides an insufficient balance (402, asserted) is not shown: no request can provoke it on purpose',
      },
      'idempotency conflict (code idempotency-conflict)': ['POOLS-TX-KEY-CONFLICT-409'],
      'reject of a terminal quote': ['POOLS-SQ-REJECT-TERMINAL-409'],
    },
  },
  {
    quote: '| 429 | partner rolling 24-hour notional velocity cap exceeded, or throttle |',
    cases: {
      'velocity cap exceeded': ['POOLS-VEL-CAP-429'],
      'rolling 24 hours': ['POOLS-VEL-ROLLING-24H'],
      throttle: {
        unasserted:
          'the request-rate limits of the pools routes are not shown (Limits), so no request rate is known to reach the throttle; a 429 the cap cannot explain is retried as throttle, never failed',
      },
    },
  },
  {
    quote: '`settled`, `failed`, `released` are terminal outcomes',
    cases: {
      'settled (a later poll keeps it, or finds it returned)': ['POOLS-POLL-TERMINAL-FINAL'],
      failed: ['POOLS-POLL-TERMINAL-FINAL'],
      released: ['POOLS-POLL-TERMINAL-FINAL'],
      'released unwinds the reservation': ['POOLS-BAL-RELEASED-UNWOUND'],
    },
  },
  {
    quote: 'Velocity cap: per-partner rolling 24-hour notional, off by default',
    cases: {
      'rolling 24 hours': ['POOLS-VEL-ROLLING-24H'],
      'off by default': ['POOLS-VEL-OFF-BY-DEFAULT'],
      'idempotent retries excluded': ['POOLS-VEL-RETRY-EXCLUDED'],
      'exceeding gives 429': ['POOLS-VEL-CAP-429'],
    },
  },
  {
    quote: 'Deliveries are signed with a `Gate-Signature` header, deduplicated on `eventId`',
    cases: {
      'signed with Gate-Signature': ['POOLS-EVT-SIGNED'],
      'deduplicated on eventId': ['POOLS-EVT-EVENT-ID'],
      'at least once, with backoff': ['POOLS-EVT-AT-LEAST-ONCE'],
      'a dead-letter store': ['POOLS-EVT-DEAD-LETTER'],
    },
  },
  {
    quote: 'The delivery address is copied from the quote to the trade at transact and is never read from the transact body.',
    cases: {
      'a destAddress in the transact body is refused (400) or ignored, never a failed transact': ['POOLS-ADDR-LOCKED-AT-QUOTE'],
      'the trade delivers to the address locked at quote time': {
        untestable:
          'the trade never shows destAddress (the Trade fields list none, and the transact answer shows three fields): where a trade delivers cannot be read, so the copy is judged only where a target shows the address, and observed as not shown otherwise',
      },
    },
  },
  {
    quote: 'Entry types named: `payin_credit`, `buy_debit`, `buy_refund`.',
    cases: {
      payin_credit: ['POOLS-LEDGER-PAYIN-CREDIT'],
      buy_debit: ['POOLS-LEDGER-BUY-DEBIT'],
      buy_refund: ['POOLS-LEDGER-BUY-REFUND'],
    },
  },
  {
    quote: 'Entitled routes (capabilities, quote, transact, balance) also require',
    cases: {
      'pools enabled for the partner': ['POOLS-AUTH-NOT-ENABLED-403'],
      'access not suspended': ['POOLS-AUTH-SUSPENDED-403'],
      'KYC approved': ['POOLS-AUTH-KYC-403'],
      'pool in the allowed set': ['POOLS-AUTH-POOL-NOT-ALLOWED-403'],
    },
  },
];
