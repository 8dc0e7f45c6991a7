// The documented flows as OpenAPI links: where a response hands the id the
// next documented step needs. Only responses whose shape is documented feed a
// link (a "not shown" response names no field to follow).
import type { Service } from '../model/endpoints/index.js';

export interface FlowLink {
  service: Service;
  /** operationId whose success response the link hangs on. */
  from: string;
  name: string;
  /** operationId the link leads to. */
  to: string;
  /** Target parameter name → runtime expression. */
  parameters: Record<string, string>;
  requestBody?: unknown;
  description: string;
}

export const FLOW_LINKS: readonly FlowLink[] = [
  // Gate: a created session is retrieved and cancelled by its id.
  {
    service: 'gate',
    from: 'createGateSession',
    name: 'RetrieveSession',
    to: 'getGateSession',
    parameters: { id: '$response.body#/id' },
    description: 'Retrieve the created session (without client_secret).',
  },
  {
    service: 'gate',
    from: 'createGateSession',
    name: 'CancelSession',
    to: 'cancelGateSession',
    parameters: { id: '$response.body#/id' },
    description: 'Cancel the open session.',
  },
  {
    service: 'gate',
    from: 'getGateSession',
    name: 'CancelSession',
    to: 'cancelGateSession',
    parameters: { id: '$request.path.id' },
    description: 'Cancel the session just read.',
  },
  {
    service: 'gate',
    from: 'createPayOut',
    name: 'RetrievePayOut',
    to: 'getPayOut',
    parameters: { id: '$response.body#/id' },
    description: 'Read the pay-out back.',
  },
  {
    service: 'gate',
    from: 'getCustomer',
    name: 'UpdateCustomer',
    to: 'updateCustomer',
    parameters: { id: '$request.path.id' },
    description: 'Change the customer just read.',
  },
  {
    service: 'gate',
    from: 'getCustomer',
    name: 'DeleteCustomer',
    to: 'deleteCustomer',
    parameters: { id: '$request.path.id' },
    description: 'Soft-delete the customer just read.',
  },
  // Pools: discover → capabilities → quote → transact → poll by quoteId → trade by transactId.
  {
    service: 'pools',
    from: 'listPools',
    name: 'PoolCapabilities',
    to: 'getPoolCapabilities',
    parameters: { id: '$response.body#/pools/0/id' },
    description: 'Read the capabilities of a discovered pool.',
  },
  {
    service: 'pools',
    from: 'getPoolCapabilities',
    name: 'Quote',
    to: 'createPoolQuote',
    parameters: { id: '$request.path.id' },
    description: 'Quote on the same pool.',
  },
  {
    service: 'pools',
    from: 'getPoolCapabilities',
    name: 'Balance',
    to: 'getPoolBalance',
    parameters: { id: '$request.path.id' },
    description: 'Read the balance of the same pool.',
  },
  {
    service: 'pools',
    from: 'createPoolQuote',
    name: 'Transact',
    to: 'transactPoolQuote',
    parameters: { id: '$request.path.id' },
    requestBody: { quoteId: '$response.body#/quoteId' },
    description: 'Transact once against the firm quote (firm quotes only: indicative and unavailable ones carry no quoteId).',
  },
  {
    service: 'pools',
    from: 'createPoolQuote',
    name: 'StoredQuote',
    to: 'getStoredQuote',
    parameters: { quoteId: '$response.body#/quoteId' },
    description: 'Read the stored firm quote.',
  },
  {
    service: 'pools',
    from: 'createPoolQuote',
    name: 'RejectQuote',
    to: 'rejectStoredQuote',
    parameters: { quoteId: '$response.body#/quoteId' },
    description: 'Reject the active firm quote.',
  },
  {
    service: 'pools',
    from: 'transactPoolQuote',
    name: 'PollStatus',
    to: 'getTransactionStatus',
    parameters: { quoteId: '$response.body#/quoteId' },
    description: 'Poll the trade status by quote id until terminal (the poll advances settlement).',
  },
  {
    service: 'pools',
    from: 'transactPoolQuote',
    name: 'Trade',
    to: 'getTrade',
    parameters: { transactId: '$response.body#/transactId' },
    description: 'Read the trade (a pure read).',
  },
  {
    service: 'pools',
    from: 'listTrades',
    name: 'NextPage',
    to: 'listTrades',
    parameters: { cursor: '$response.body#/nextCursor' },
    description: 'The next page while hasMore is true; keep the same filters.',
  },
];
