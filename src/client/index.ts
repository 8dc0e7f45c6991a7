// The client layer's public surface.
export * from './types.js';
export { createApiClient, toTransportError, DEFAULT_TIMEOUT_MS, type ClientOptions } from './http.js';
export { Pacer, type PacerOptions } from './pacer.js';
export { redact, redactDeep, redactHeaders, registerSecret, toExchangeRecord, EXCHANGE_BODY_LIMIT } from './redact.js';
export { backoffDelayMs, retryAfterMs, sleep, type BackoffOptions } from './backoff.js';
