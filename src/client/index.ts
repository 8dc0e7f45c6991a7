// The client layer's public surface.
export * from './types.js';
export { createApiClient, toTransportError, DEFAULT_TIMEOUT_MS, type ClientOptions } from './http.js';
export {
  clientLimits,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_OUTAGE_AFTER,
  DEFAULT_RATE_LIMIT_BUDGET_SECONDS,
  type HarnessSettings,
} from './limits.js';
export { describeAnswer } from './answer.js';
export { Pacer, PAUSED_PRESSURE, type PacerOptions, type PauseEvent, type PauseListener } from './pacer.js';
export { redact, redactDeep, redactHeaders, registerSecret } from '../secrets/index.js';
export { backoffDelayMs, retryAfterMs, sleep, type BackoffOptions } from './backoff.js';
export { TargetClock, clockReport, newTargetClocks, type TargetClocks } from './targetClock.js';
