// The pools spec's passages that no requirement tests, each with its reviewed reason.
// (Anchors of tested passages live with their requirements in src/model/catalogue/pools/.)
import type { PassageCases } from './index.js';

/** Open points the spec leaves open without saying "not shown". */
export const NOT_SHOWN: { quote: string; reason: string }[] = [
  {
    quote: 'Base addresses: `{pools_base_url}` (production) and `{pools_sandbox_base_url}` (sandbox).',
    reason: 'the addresses are placeholders: the profile declares both (pools.baseUrls), and the key-mode checks use each',
  },
];

/** Passages no request to the target can test, and why. */
export const NOT_TESTABLE: { quote: string; reason: string }[] = [
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
export const CASES: PassageCases[] = [];
