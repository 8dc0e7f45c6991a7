// Gate sequence faults written blind (issue 43): each a second copy of some state — a read cache, an index, an
// idempotency record, a snapshot, a copy another service keeps — that one path writes and another forgets. No single
// request shows one; each parts from the spec only after a short order of documented operations on one object or one
// key. The copies live in the blind*.ts modules beside this file; the handlers call them in one line each.
import type { FaultDef } from '../kit/faults.js';

export const BLIND_GATE_FAULTS: FaultDef[] = [
  {
    name: 'seq-blind-embed-refresh-after-completion',
    service: 'gate',
    requirements: ['GATE-EMBED-REFRESH-OPEN-ONLY'],
    description:
      "Sequence: the embed service keeps its own copy of each bound session's status, written at bootstrap and by POST cancel, never by a completion (a linked buy succeeding) — bootstrap with the client_secret, then the session completes, then POST /embed/refresh still rotates the token for the completed session (a cancelled one is refused).",
    suite: 'explore',
  },
  {
    name: 'seq-blind-sess-replay-new-after-cancel',
    service: 'gate',
    requirements: ['GATE-SESS-IDEMPOTENT-REPLAY'],
    description:
      "Sequence: POST /gate_sessions keeps its Idempotency-Key records with the session they made, and POST cancel clears the session's records (completion and expiry do not) — create with a key, cancel, then the same create with the same key and body makes a second, open session instead of returning the original response.",
    suite: 'explore',
  },
  {
    name: 'seq-blind-cust-replay-reprimes-cache',
    service: 'gate',
    requirements: ['GATE-CUST-GET', 'GATE-CUST-DELETED-404'],
    description:
      'Sequence: GET /customers/{id} answers from a write-through cache; POST /customers and PATCH write their answer through it, DELETE evicts — and an Idempotency-Key replay of the create, answering its stored response, writes the customer as created back into the cache: create with a key, PATCH (or DELETE), the same create again, then GET answers the record from before the PATCH (or 200 for the deleted customer).',
    suite: 'explore',
  },
  {
    name: 'seq-blind-cust-external-id-freed-by-patch',
    service: 'gate',
    requirements: ['GATE-CUST-DUP-EXTERNAL-ID-409'],
    description:
      "Sequence: POST /customers checks external_id against a lookup index written at creation; PATCH re-saves the customer's index row from the patch's own fields, which never carry external_id (immutable), so the row loses it — after a PATCH, a create with another email and the patched customer's external_id is accepted (201, a duplicate) instead of 409; email stays unique.",
    suite: 'explore',
  },
  {
    name: 'seq-blind-whops-skip-stale-snapshot',
    service: 'gate',
    requirements: ['GATE-WHOPS-LIST-SKIP-OFFSET'],
    description:
      'Sequence: GET /webhooks/deliveries pages over a snapshot of the ordered deliveries taken by the read without skip (the first page); a read with skip > 0 slices that snapshot instead of the current list — a delivery enqueued between (POST /webhooks/test, any event) shifts the list, and the page skip=N gives is no longer the unskipped list from its (N+1)th delivery on.',
    suite: 'explore',
  },
  {
    name: 'seq-blind-rail-payin-replay-latest-of-session',
    service: 'gate',
    requirements: ['GATE-RAIL-PAYIN-IDEMPOTENT-REPLAY'],
    description:
      "Sequence: a pay-in's Idempotency-Key replay re-reads its answer through the session's latest pay-in (the record keeps the key's session, as if a session took one pay-in), not the pay-in the key made — pay-in A on a session, pay-in B on another quote of that session, then A's request again answers B (another id and quote_id) instead of A's original response.",
    suite: 'explore',
  },
  {
    name: 'seq-blind-rail-payout-key-keeps-last-body',
    service: 'gate',
    requirements: ['GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY'],
    description:
      "Sequence: a pay-out's Idempotency-Key record takes the fingerprint of every request under the key, the refused ones too (upserted before the comparison) — pay-out A, the same key with another body (409, right), then A's request again is refused 409 instead of returning the original pay-out, and the other body repeated is answered A's pay-out.",
    suite: 'explore',
  },
  {
    name: 'seq-blind-brand-refused-patch-cached',
    service: 'gate',
    requirements: ['GATE-BRAND-COLOR-PATTERN', 'GATE-BRAND-LOGO-HTTPS', 'GATE-BRAND-NAME-MAX-64', 'GATE-BRAND-PATCH-UNKNOWN-400'],
    description:
      'Sequence: GET /branding answers from a cache filled by the first read; PATCH writes each valid token into the cache while it validates and stores the branding only when the whole update is valid — a PATCH refused 400 (one bad token beside good ones) leaves its good tokens in the cache, and GET /branding shows a change the refused update never made (a successful PATCH keeps cache and branding equal).',
    suite: 'explore',
  },
];
