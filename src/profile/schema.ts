// The target profile: everything about a target that cannot be created through
// the APIs. The harness reads it to know what it may test; the embedded
// reference target reads the same file to build its world.
import { z } from 'zod';
import { dialectProblem } from '../model/openPoints/index.js';
import { baseUrl, comment } from './common.js';
import { PoolsSection } from './poolsSection.js';
import { RequestTemplate } from './requestTemplate.js';

export { ArmStep, RequestTemplate } from './requestTemplate.js';
export { PoolsPartner, PoolsPartnerState } from './poolsSection.js';
import { GATE_LIMITS, POOLS_LIMITS } from '../model/limits.js';

/**
 * A value the spec fixes: a profile may declare only time scales and bounded
 * tolerances, never move a documented value. Absent or equal to the spec is fine.
 */
function specFixed(field: string, value: number, why: string) {
  return z
    .number()
    .optional()
    .refine((v) => v === undefined || v === value, {
      message: `${why}; a profile declares only time scales (timing.retryScale, timing.rateWindowScale) and bounded tolerances — remove ${field} (got a value other than ${value})`,
    });
}
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_OUTAGE_AFTER,
  DEFAULT_RATE_LIMIT_BUDGET_SECONDS,
  DEFAULT_TIMEOUT_MS,
} from '../client/limits.js';

/**
 * A Gate key as the Authentication table gives it: `sk_<test|live>_<32 chars>` (publishable: pk_). The
 * characters are not shown: any 32 that are not whitespace.
 */
function gateKey(kind: 'sk' | 'pk', mode: 'test' | 'live' | 'test|live', what: string) {
  const modes = mode === 'test|live' ? '(test|live)' : mode;
  const form = `${kind}_${mode === 'test|live' ? '<test|live>' : mode}_ followed by ${GATE_LIMITS.keyBodyLength} characters`;
  return z
    .string()
    .regex(new RegExp(`^${kind}_${modes}_\\S{${GATE_LIMITS.keyBodyLength}}$`), `${what} is ${form} (Authentication: ${kind}_<test|live>_<32 chars>)`);
}

export const GatePartner = z
  .object({
    ...comment,
    /** A label used in reports; never a secret. */
    name: z.string().min(1),
    secretKey: gateKey('sk', 'test', 'a sandbox secret key'),
    publishableKey: gateKey('pk', 'test', 'a sandbox publishable key').optional(),
    /** A live secret key of this partner (mode-mismatch checks and the production base). */
    liveSecretKey: gateKey('sk', 'live', 'a live secret key').optional(),
    livePublishableKey: gateKey('pk', 'live', 'a live publishable key')
      .optional()
      .describe('A live publishable key of this partner: an embed bootstrap on the sandbox with it must be refused (mode mismatch, 403).'),
    /** A key of this partner that the target has revoked. */
    revokedSecretKey: gateKey('sk', 'test|live', 'a revoked secret key').optional(),
    revokedPublishableKey: gateKey('pk', 'test|live', 'a revoked publishable key')
      .optional()
      .describe('A publishable key of this partner that the target has revoked: an embed bootstrap with it must give 403.'),
    extraSecretKeys: z
      .array(gateKey('sk', 'test', 'an extra sandbox secret key'))
      .optional()
      .describe(
        "More sandbox secret keys of this same partner (one tenant). Each key is its own rate-limit client: rampart spreads the partner's traffic over all of them, and never takes two keys of one partner for two tenants.",
      ),
    /** Exact origins allowed to bootstrap the embed (scheme://host[:port]). */
    allowedOrigins: z.array(z.string().regex(/^https?:\/\/[^/]+$/, 'an origin is scheme://host[:port]')).optional(),
    /** Webhook signing secret (whsec_…) the target signs this partner's events with. */
    webhookSecret: z.string().min(1).optional(),
    /** Rail entitlement: true = rails enabled, false = known not enabled, absent = unknown. */
    rails: z.boolean().optional(),
    /** The partner is KYC-trusted: its kyc_package is accepted. */
    kycTrusted: z.boolean().optional(),
    /**
     * The target has no webhook_url configured for this partner (POST /webhooks/test
     * must give 400). Give such a partner no webhookSecret: rampart then never wires it.
     */
    noWebhookUrl: z.boolean().optional(),
    /**
     * The per-user cumulative rail volume cap the target applies to this partner's users, in the
     * currency of the sessions rampart creates (its value is not shown in the spec). The
     * account_blocked check pushes a fresh user past it; give it to a rail-entitled partner.
     */
    railVolumeCap: z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'railVolumeCap is a decimal string')
      .optional(),
    /**
     * rampart may rotate this partner's webhook signing secret (POST /dashboard/webhook-secret/rotate)
     * and learns each new secret from the rotate response (gate.rotatedSecretPath). Give such a partner
     * no webhookSecret: no other check then depends on a secret the rotation replaces.
     */
    webhookSecretRotation: z.boolean().optional(),
    brandingUnset: z
      .boolean()
      .optional()
      .describe(
        'This partner has never set its branding (a fresh sandbox partner): GET /branding must read all five tokens null, the default branding. rampart keeps every other check off this partner, so nothing it sends ever sets a token.',
      ),
    /**
     * 'load': the key is kept out of conformance and chaos traffic so the
     * rate-limit scenarios start with empty windows (give at least 8; leave
     * them unused for an hour before a --depth full run). 'chaos': kept for the
     * chaos suites, so certify can run them beside conformance.
     */
    reservedFor: z.enum(['load', 'chaos', 'explore', 'races']).optional(),
  })
  .strict();
export type GatePartner = z.infer<typeof GatePartner>;

const GateCatalogFixtures = z
  .object({
    ...comment,
    supportedCountry: z.string().length(2).optional(),
    /** Default fiat of supportedCountry, as the target resolves it. */
    supportedCountryCurrency: z.string().length(3).optional(),
    unsupportedCountry: z.string().length(2).optional(),
    supportedCurrency: z.string().length(3).optional(),
    unsupportedCurrency: z.string().length(3).optional(),
    /** An active asset offered on_ramp in supportedCountry. */
    activeAsset: z.string().optional(),
    inactiveAsset: z.string().optional(),
    /** An asset offered on_ramp but not off_ramp. */
    onRampOnlyAsset: z.string().optional(),
    /** An active asset offered off_ramp: GET /capabilities/assets/{symbol}?side=off_ramp must answer its off-ramp entry. */
    offRampAsset: z.string().optional(),
    /** An active asset the target holds no display name for: its name must fall back to its symbol. */
    namelessAsset: z.string().optional(),
    /** A country whose default fiat has no payment method (payment-methods returns empty data). */
    countryWithoutMethods: z.string().length(2).optional(),
  })
  .strict();

export const Profile = z
  .object({
    ...comment,
    $schema: z.string().optional(),
    name: z.string().min(1),
    description: z.string().optional(),
    gate: z
      .object({
        ...comment,
        baseUrls: z.object({ ...comment, sandbox: baseUrl, production: baseUrl.optional() }).strict(),
        partners: z.array(GatePartner).min(1),
        liveWrites: z
          .boolean()
          .default(false)
          .describe(
            "rampart may create objects with a partner's live secret key on the production base (one GateSession, cancelled at once, to see it reads mode live). Off by default: on a real production target that is a live object; turn it on only where live writes are allowed (a staging production, the embedded target).",
          ),
        /** Session creation defaults (amount, currency, return_url) merged under each check's body. */
        sessionDefaults: z.record(z.string(), z.unknown()).optional(),
        /**
         * Extra fields a customer creation needs on this target (the accepted fields are not shown in
         * the spec): merged under rampart's unique email, external_id and phone. {{tag}}, {{email}},
         * {{externalId}} and {{phone}} are filled in.
         */
        customerTemplate: z.record(z.string(), z.unknown()).optional(),
        /** A kyc_package the target accepts from a kycTrusted partner (its shape is not shown in the spec). */
        kycPackage: z.unknown().optional(),
        /**
         * Dotted path of the new signing secret in the POST /dashboard/webhook-secret/rotate response (the
         * response shape is not shown in the spec). Without it a rotation is only observed.
         */
        rotatedSecretPath: z.string().min(1).optional(),
        catalog: GateCatalogFixtures.default({}),
        triggers: z
          .object({
            ...comment,
            /** Point a partner's webhook_url at the harness receiver ({{webhookUrl}}). */
            configureWebhook: RequestTemplate.optional(),
            /** Make a linked buy/sell succeed, enter processing, or fail ({{sessionId}}). */
            completeSession: RequestTemplate.optional(),
            processSession: RequestTemplate.optional(),
            failSession: RequestTemplate.optional(),
            /** Move a session's expires_at into the past without reading it ({{sessionId}}). */
            expireSession: RequestTemplate.optional(),
            /** Lock a signed quote for a session (POST /quotes; body not shown in the spec). extract: id, fiat_pay_or_receive. */
            createSignedQuote: RequestTemplate.optional(),
            /** Make a signed quote expire ({{quoteId}}). */
            expireSignedQuote: RequestTemplate.optional(),
            /** Bring the partner near a usage quota, so partner.quota.warning fires. */
            quotaWarning: RequestTemplate.optional(),
            /**
             * Exhaust a usage quota of the partner, so partner.quota.exhausted fires. rampart goes on using
             * the partner afterwards: the control must fire the event without throttling its traffic.
             */
            quotaExhausted: RequestTemplate.optional(),
            /** Body of a pay-in redeeming {{quoteId}} (POST /rails/pay_ins; body not shown). */
            payInBody: z.record(z.string(), z.unknown()).optional(),
            /**
             * A sandbox control that makes the target answer a 5xx through its normal error path (the
             * spec offers no request that must fail on the server): the 5xx-scrubbing check judges
             * that answer. It works when it answers 5xx; without it the check is skipped.
             */
            serverError: RequestTemplate.optional(),
            requireKyc: RequestTemplate.optional().describe(
              "A sandbox control that blocks a session pending KYC, as a real user's KYC hold would, so the target fires kyc.required (data gate_session_id, kyc_status, user_reference). {{sessionId}} is filled in.",
            ),
          })
          .strict()
          .default({}),
        /** What the edge (CDN, proxy) in front of the target does to requests. */
        edge: z
          .object({
            ...comment,
            /**
             * true when the edge sets cf-ipcountry itself from the caller's IP (Cloudflare does), so
             * rampart can neither choose nor omit the country header: the ip-geo checks are skipped.
             */
            overwritesCountryHeader: z.boolean().default(false),
          })
          .strict()
          .default({ overwritesCountryHeader: false }),
      })
      .strict(),
    pools: PoolsSection,
    webhooks: z
      .object({
        ...comment,
        /** Where rampart's receiver listens. Loopback by default. */
        listenHost: z.string().default('127.0.0.1'),
        listenPort: z.number().int().min(0).max(65535).default(0),
        /** The URL the target must call, when it differs from the listen address ({{port}}). */
        publicUrl: z.string().optional(),
      })
      .strict()
      .default({ listenHost: '127.0.0.1', listenPort: 0 }),
    timing: z
      .object({
        ...comment,
        /** Factor on the 1m/5m/30m/2h retry schedule the target declares (1 = real time). */
        retryScale: z.number().positive().max(1).default(1),
        /**
         * Factor on the Gate rate windows (10 s, 1 min, 1 h) the target declares: a sandbox that
         * compresses time answers 10 per 1 s at 0.1. rampart paces to the scaled windows and the
         * verdict says so. A real sandbox declares 1 (the default).
         */
        rateWindowScale: z.number().positive().max(1).default(1),
        /** Fixed by the spec (10 s per webhook attempt): a profile may not move it. Accepted only when equal to the spec's value. */
        attemptTimeoutMs: specFixed(
          'timing.attemptTimeoutMs',
          GATE_LIMITS.webhook.attemptTimeoutMs,
          'the webhook attempt timeout is fixed by the Gate spec (10 s)',
        ),
        /**
         * Default session lifetime in seconds, when the target declares it (not shown in the spec).
         * Used to get a session past expires_at when gate.triggers.expireSession is absent.
         */
        sessionLifetimeSeconds: z.number().positive().optional(),
        /**
         * Lifetime of a signed (locked) Gate quote in seconds, when the target declares it (not shown
         * in the spec). Used to get a quote expired when gate.triggers.expireSignedQuote is absent.
         */
        signedQuoteLifetimeSeconds: z.number().positive().optional(),
        /** Fixed by the spec (a firm quote lives about 15 s): a profile may not move it. Accepted only when equal to the spec's value. */
        quoteTtlSeconds: specFixed('timing.quoteTtlSeconds', POOLS_LIMITS.quoteTtlSeconds, 'the firm-quote TTL is fixed by the pools spec (about 15 s)'),
      })
      .strict()
      .default({ retryScale: 1, rateWindowScale: 1 }),
    tolerances: z
      .object({
        ...comment,
        /** Allowed distance of expiresAt − request time from the spec's 15 s quote TTL, in seconds ("about 15"; at most 5). */
        quoteTtlSeconds: z.number().nonnegative().max(5, 'at most 5 s: the spec says about 15 s, and a wider tolerance would certify another TTL').default(2),
        /** Allowed relative error on a measured retry gap (at most 0.5). */
        retryGapRatio: z.number().nonnegative().max(0.5, 'at most 0.5: a wider tolerance would certify another schedule').default(0.25),
        /** Allowed absolute error on a measured retry gap, in real-time ms (at most 30 s), scaled by timing.retryScale like the schedule. */
        retryGapMs: z.number().nonnegative().max(30_000, 'at most 30000 ms').default(1_500),
        /**
         * Allowed error on where a rate window's edges fall, as a share of the window (at most 0.1; never under 20 ms):
         * the load judge widens each request's decision time by it when telling the window's length.
         */
        rateWindowRatio: z
          .number()
          .nonnegative()
          .max(0.1, 'at most 0.1: the judge widens each request by twice this on either side, and more could not tell a window from one half again as long')
          .default(0.05),
      })
      .strict()
      .default({ quoteTtlSeconds: 2, retryGapRatio: 0.25, retryGapMs: 1_500, rateWindowRatio: 0.05 }),
    /** rampart's own limits against this target (not the target's behaviour). */
    harness: z
      .object({
        ...comment,
        /** Per-attempt time to the response headers, in ms (the --request-timeout flag overrides it). */
        requestTimeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
        caFile: z
          .string()
          .min(1)
          .optional()
          .describe(
            "A PEM file of the private CA that signs the target's https certificate (relative to the folder rampart runs in): trusted beside the system roots by rampart's clients and handed to k6 (SSL_CERT_FILE). NODE_EXTRA_CA_CERTS works too.",
          ),
        /** Largest response body read, in bytes; a larger body fails its request "body larger than N" (--max-body-bytes overrides it). */
        maxBodyBytes: z.number().int().positive().default(DEFAULT_MAX_BODY_BYTES),
        /** Time allowed for a whole response body after its headers, in ms. */
        bodyTimeoutMs: z.number().int().positive().default(DEFAULT_BODY_TIMEOUT_MS),
        /** Consecutive transport failures (no answer at all) that mean an outage: the run stops with exit 3. */
        outageAfter: z.number().int().min(1).default(DEFAULT_OUTAGE_AFTER),
        /** How long every key may be paused by the target's Retry-After before the run ends rate limited (exit 5), in seconds. */
        rateLimitBudgetSeconds: z.number().positive().default(DEFAULT_RATE_LIMIT_BUDGET_SECONDS),
      })
      .strict()
      .default({
        requestTimeoutMs: DEFAULT_TIMEOUT_MS,
        maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
        bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
        outageAfter: DEFAULT_OUTAGE_AFTER,
        rateLimitBudgetSeconds: DEFAULT_RATE_LIMIT_BUDGET_SECONDS,
      }),
    /** Settings read only by the embedded reference target. */
    reference: z
      .object({
        ...comment,
        rateLimits: z.boolean().default(true),
        /** Retry-schedule factor the embedded target applies (keep equal to timing.retryScale). */
        timeScale: z.number().positive().max(1).default(1),
        attemptTimeoutMs: z.number().int().positive().default(10_000),
        sessionLifetimeSeconds: z.number().positive().default(1800),
        quoteTtlSeconds: z.number().positive().default(15),
        /** Sandbox-helper path prefix (under each base URL). */
        helperPrefix: z.string().default('/_sandbox'),
        /** Opening EUR balance of funded pools partners (decimal string). */
        poolsOpeningBalance: z.string().default('100000.00'),
        /**
         * Gate partners the embedded target issues live keys to at start (derived from their
         * sandbox keys, so every start from one profile issues the same), instead of live-format
         * keys sitting in a tracked file. They appear in the running profile; `rampart serve
         * --write-profile` writes them out for a harness in another process.
         */
        liveKeysFor: z.array(z.string().min(1)).default([]),
        /** Pools partners the embedded target issues a live secret key to at start, the same way (never a tracked live key). */
        poolsLiveKeysFor: z.array(z.string().min(1)).default([]),
        clockOffsetSeconds: z
          .number()
          .default(0)
          .describe(
            "The embedded target's clock runs this many seconds ahead of the machine's (negative: behind): every timestamp it issues and its Date header, as a remote sandbox keeps its own clock.",
          ),
        dateHeaderOutliers: z
          .object({
            ...comment,
            every: z.number().int().min(2),
            offsetSeconds: z.number(),
          })
          .strict()
          .optional()
          .describe(
            "One answer in `every` (the 2nd, then every `every`-th) carries a Date header `offsetSeconds` off the embedded target's clock, as behind a fleet with one node's clock off; its objects' timestamps stay right. A trait of the world, not a fault: rampart must discard such answers and still judge the target's clock.",
          ),
        webhookReach: z
          .array(z.string().regex(/^https?:\/\//, 'a URL prefix (http:// or https://)'))
          .optional()
          .describe(
            "URL prefixes the embedded target's webhook sender can reach (absent: any). A remote sandbox reaches the harness only through its public URL: a delivery to any other address fails as a network error.",
          ),
        signedQuoteLifetimeSeconds: z
          .number()
          .positive()
          .default(600)
          .describe('Lifetime of a signed (locked) Gate quote the embedded target issues (not shown in the spec).'),
        history: z
          .object({
            ...comment,
            sessions: z.number().int().min(0).default(0),
            customers: z.number().int().min(0).default(0),
            trades: z.number().int().min(0).default(0),
            deliveries: z.number().int().min(0).default(0),
          })
          .strict()
          .optional()
          .describe(
            "A lived-in sandbox: objects every partner already holds when the target starts (Gate sessions, customers and webhook deliveries per Gate partner; trades, with their ledger entries, per funded pools partner), created before the run on the target's clock.",
          ),
        idStyle: z
          .enum(['prefixed', 'uuid'])
          .default('prefixed')
          .describe(
            "How the embedded target shapes the ids it issues, for every resource of both services: 'prefixed' (gs_…, cus_…, ptx_…, whd_…) or 'uuid' (bare UUIDs). A second world proves no check relies on one target's formats.",
          ),
        keyAlphabet: z
          .enum(['alnum', 'hex'])
          .default('alnum')
          .describe(
            "Alphabet of the 32-character random part of the keys the embedded target issues itself (live keys): 'alnum' (A–Z, a–z, 0–9) or 'hex' (0–9, a–f).",
          ),
        // Readings: where the specs allow two, the second world takes the other one, so its checks prove both pass.
        requestIdStyle: z
          .enum(['uuid', 'base62'])
          .default('uuid')
          .describe("Shape of the request ids (X-Request-Id, request_id): 'uuid' or 'base62' (22 characters; both \"UUID-like per-request\" ids)."),
        serverErrorMessage: z
          .string()
          .min(1)
          .optional()
          .describe(
            'The generic text a Gate 500 carries (absent: "An internal error occurred."). The spec says only "scrubbed to a generic internal error text".',
          ),
        unsentFlow: z
          .enum(['none', 'on_ramp'])
          .default('none')
          .describe("The flow a Gate session created without one reads: 'none' (null) or 'on_ramp', the spec's one documented value."),
        customerKycPendingAfterSeconds: z
          .number()
          .positive()
          .optional()
          .describe(
            "A Gate customer's kyc_status (server-managed, informational) moves from not_started to pending on its own this long after creation (absent: never).",
          ),
        undocumentedInputs: z
          .enum(['lenient', 'strict'])
          .default('lenient')
          .describe(
            "Inputs the Gate spec does not show: 'lenient' (POST /quotes/preview prices amount and currency, GET /capabilities/payout-methods needs no query) or 'strict' (the preview also requires side, the payout methods a currency or country_code: 400 without).",
          ),
        poolsBalanceFees: z
          .boolean()
          .default(false)
          .describe(
            'Pools balance moves whose amounts the spec does not state: a reservation also draws the draw fee (drawFeeBps), a returned trade refunds its fiat amount without it, a pay-in is credited net of a 0.25 EUR bank fee.',
          ),
        liveHttpWebhooks: z
          .enum(['refuse', 'undelivered'])
          .default('refuse')
          .describe(
            "\"HTTPS required in live mode\" (when it is enforced is not shown): 'refuse' (an http webhook_url is refused at the settings call) or 'undelivered' (accepted, but nothing is ever sent to it: POST /webhooks/test answers 400 and events are not enqueued).",
          ),
        deliveryListOrder: z
          .enum(['created', 'updated'])
          .default('created')
          .describe(
            "GET /webhooks/deliveries is \"most recent first\" (no field named): 'created' (newest creation first) or 'updated' (the latest change first: an attempt, a replay).",
          ),
        ledgerPaging: z
          .enum(['cursor', 'after'])
          .default('cursor')
          .describe(
            "How GET /pools/ledger pages (query and shape not shown): 'cursor' (the trades list's words: ?cursor=, { data, nextCursor, hasMore }) or 'after' (?after=, { entries, next }).",
          ),
        controlDialect: z
          .enum(['spec', 'own'])
          .default('spec')
          .describe(
            "The sandbox controls' own language: 'spec' (the pool-state control takes the spec's words — available, pool_dry, engine_unavailable, rate_unavailable — and the 5xx control fails itself) or 'own' (the pool-state control takes open, dry, engine_down, no_rate, and the 5xx control arms the partner's next request instead of failing itself; a profile maps values and arms: the second world).",
          ),
        dialect: z
          .record(z.string(), z.string())
          .superRefine((d, ctx) => {
            const why = dialectProblem(d);
            if (why) ctx.addIssue({ code: 'custom', message: why });
          })
          .optional()
          .describe(
            "One choice per open point of the specs (rampart spec-map --json lists them under openPoints, each with its choices): the world the embedded target takes where the specs leave a value, a field, a moment or an order open. Absent points take the reference's own (the first choice). `rampart serve --dialect SEED` draws one.",
          ),
        poolsAdditiveFields: z
          .boolean()
          .default(false)
          .describe(
            "Pools responses carry additive optional fields (Versioning) whose names are generic words: funding provider, a route to the resource, a trade's own reserve, and on the balance autoTopUp.enabled and statements.access.",
          ),
      })
      .strict()
      .optional(),
  })
  .strict();

export type Profile = z.infer<typeof Profile>;
