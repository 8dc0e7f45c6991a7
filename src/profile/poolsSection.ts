// The pools section of a profile: its partners (keys, states, funding) and the pools service's base URLs, pools,
// sandbox triggers and declared dialect.
import { z } from 'zod';
import { baseUrl, comment } from './common.js';
import { RequestTemplate } from './requestTemplate.js';

export const PoolsPartnerState = z.enum(['funded', 'unfunded', 'kyc_pending', 'suspended', 'not_enabled']);

export const PoolsPartner = z
  .object({
    ...comment,
    name: z.string().min(1),
    secretKey: z.string().regex(/^sk_test_/, 'sandbox secret key must start with sk_test_'),
    publishableKey: z
      .string()
      .regex(/^pk_test_/)
      .optional(),
    /** A live secret key of this partner: presented to the sandbox, it must be refused (403 key_mode_mismatch). */
    liveSecretKey: z
      .string()
      .regex(/^sk_live_/, 'live secret key must start with sk_live_')
      .optional(),
    /** A key of this partner that the target has revoked: an invalid key (401). */
    revokedSecretKey: z
      .string()
      .regex(/^sk_(test|live)_/, 'a revoked secret key starts with sk_test_ or sk_live_')
      .optional(),
    /** What the operator provisioned for this partner. */
    state: PoolsPartnerState.default('funded'),
    /** The tier the operator provisioned for this partner: capabilities and balance must report it. Absent: rampart only checks they agree. */
    tier: z.string().min(1).optional(),
    /**
     * false: the operator has not provisioned this partner's funding IBAN yet, so GET /pools/funding must answer
     * iban null (the partner needs the balance gate on). Absent: not known.
     */
    ibanProvisioned: z.boolean().optional(),
    /** Pools this partner is entitled to (ids as GET /pools reports them). */
    allowedPools: z.array(z.string()).optional(),
    /** off_ramp transact enabled for this partner and environment. */
    offRamp: z.boolean().default(false),
    /** The balance gate: false means balance is null and funding gives 404. */
    balanceGate: z.boolean().default(true),
    /** Rolling 24 h notional velocity cap (decimal string), when configured. */
    velocityCap: z.string().optional(),
    /**
     * rampart may move this partner's rolling 24 h velocity window forward (pools.triggers.velocityAdvance) to see
     * it roll. Give it to a velocity-capped partner of its own: the cap checks that count trades by their real age
     * never take it.
     */
    velocityClock: z.boolean().optional(),
    webhookSecret: z.string().min(1).optional(),
    /** Kept for one suite kind ('load', 'chaos') so certify can run the kinds at once on disjoint partners. */
    reservedFor: z.enum(['load', 'chaos', 'explore', 'races']).optional(),
  })
  .strict();
export type PoolsPartner = z.infer<typeof PoolsPartner>;

export const PoolsSection = z
  .object({
    ...comment,
    baseUrls: z.object({ ...comment, sandbox: baseUrl, production: baseUrl.optional() }).strict(),
    partners: z.array(PoolsPartner).min(1),
    pools: z
      .object({
        ...comment,
        /** A pool every funded partner may trade. */
        main: z.string(),
        /** A pool that answers quotes with available false (pool_dry). */
        dry: z.string().optional(),
        /** A pool that exists but is outside the partners' allowed set. */
        notAllowed: z.string().optional(),
      })
      .strict(),
    /** A valid quote body for the main pool; checks vary single fields. */
    quote: z
      .object({
        ...comment,
        fiatCurrency: z.string(),
        cryptoCurrency: z.string(),
        amount: z.string(),
        cryptoNetwork: z.string().optional(),
        destAddress: z.string(),
        destNetwork: z.string().optional(),
      })
      .strict(),
    ledgerPaging: z
      .object({
        ...comment,
        cursorParam: z.string().min(1).describe('The query parameter that takes the cursor (e.g. cursor, after, starting_after).'),
        nextCursor: z.string().min(1).describe("Dotted path of the next page's cursor in a ledger page (e.g. nextCursor, next, meta.next)."),
        entries: z.string().min(1).optional().describe('Dotted path of the entries array in a ledger page (absent: data, else the first array of objects).'),
        limitParam: z.string().min(1).default('limit').describe('The query parameter that takes the page size.'),
      })
      .strict()
      .optional()
      .describe(
        "How this sandbox pages GET /pools/ledger (its query parameters and response shape are not shown). Declared, the ledger's cursor is judged in full: a cursor the target does not honour fails. Absent: the trades list's words are tried (data, nextCursor, ?cursor=), and a ledger that does not take them is unverified.",
      ),
    /** An amount above every funded partner's balance (402). */
    oversizedAmount: z.string().optional(),
    /**
     * How the target signs its pools webhooks (the pools spec leaves the recipe "not shown").
     * 'gate': the Gate recipe (Gate-Signature t=,v1= HMAC-SHA256 of "t." + raw body with the
     * partner's webhookSecret); rampart then verifies every pools delivery and refuses what does
     * not verify. Absent: deliveries are accepted and the Gate recipe's verdict is only observed.
     */
    webhookSignature: z.enum(['gate']).optional(),
    /**
     * The sandbox's retry policy for pools webhooks, as its operator documents it (the spec leaves the retry
     * schedule and the dead-letter threshold not shown): `attempts` made before a delivery the partner never
     * acknowledges is dead-lettered, and `scheduleSeconds`, the gaps before attempts 2, 3, … at scale 1
     * (timing.retryScale applies). Declared, rampart fails every attempt of one event and sees delivery stop there.
     */
    webhookRetry: z
      .object({
        ...comment,
        attempts: z.number().int().min(1),
        scheduleSeconds: z.array(z.number().positive()),
      })
      .strict()
      .refine((r) => r.scheduleSeconds.length >= r.attempts - 1, 'scheduleSeconds gives a gap before every attempt after the first (attempts − 1 of them)')
      .optional(),
    triggers: z
      .object({
        ...comment,
        /** Choose the outcome the next poll discovers ({{quoteId}}, {{outcome}} = settled|failed|released|returned). */
        tradeOutcome: RequestTemplate.optional(),
        /** Point a partner's pools webhooks at the harness receiver ({{webhookUrl}}). */
        configureWebhook: RequestTemplate.optional(),
        /**
         * Put a pool, as the acting partner sees it, into a state ({{poolId}}, {{state}} = available | pool_dry |
         * engine_unavailable | rate_unavailable). rampart holds that partner alone meanwhile and sets available
         * again after; a control that changes the pool for every partner would disturb other checks.
         */
        poolState: RequestTemplate.optional(),
        /** Credit the acting partner's pre-funded balance as a pay-in would ({{amount}}, a decimal string; {{currency}} = EUR): a payin_credit ledger entry. */
        balanceCredit: RequestTemplate.optional(),
        /**
         * Move the acting partner's rolling 24-hour velocity window forward by {{seconds}} (its trades age by that
         * much, as if the time had passed): the only way to see the window roll without waiting a day.
         */
        velocityAdvance: RequestTemplate.optional(),
      })
      .strict()
      .default({}),
  })
  .strict()
  .optional();
