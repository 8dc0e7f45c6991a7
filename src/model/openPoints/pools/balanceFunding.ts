// Open points of the pools spec's balance and funding: the opening balance, the moves whose amounts are not stated,
// the funding instructions' type and the IBAN's provisioning (Resources and their fields > Balance, Funding).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Resources and their fields > Balance',
  entries: {
    'pools.balance.opening': {
      kind: 'value',
      passage: '`balance` (decimal string partner fiat balance, or null when the balance gate is off)',
      what: "a funded partner's opening balance: a world's own value (the harness learns it from the answers, never from the profile)",
      choices: ['100000.00', '25000.00'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/balanceFunding.ts', 'conformance/pools/transact.ts'],
    },
    'pools.balance.fees': {
      kind: 'value',
      passage: 'automatic idempotent refund credit to partner balance, visible in ledger as `buy_refund`',
      what: "the amounts of the balance moves the spec does not state: a reservation draws the trade's fiat amount and a refund gives it back, or a reservation also draws the draw fee and a pay-in is credited net of a bank fee",
      choices: ['exact-amounts', 'with-fees'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/balanceFunding.ts', 'conformance/pools/trades.ts'],
    },
    'pools.funding.instructions': {
      kind: 'not-shown',
      passage: 'Type of the instructions field: not shown.',
      what: "the funding instructions' type: a string, or an object",
      choices: ['string', 'object'],
      readBy: ['conformance/pools/balanceFunding.ts'],
    },
    'pools.funding.iban': {
      kind: 'nullable',
      passage: '`iban` (string or null until provisioned)',
      what: "whether a funded partner's IBAN is provisioned: a string, or null (not yet provisioned)",
      choices: ['provisioned', 'null'],
      readBy: ['conformance/pools/balanceFunding.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/balanceFunding': typeof area.entries;
  }
}
