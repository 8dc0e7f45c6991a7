// The client's limits and their defaults: one place, read by the client, the
// profile schema (harness.*) and the CLI flags that override them.
import { readCaFile } from './transport.js';

/** Per-attempt time to the response headers. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Largest response body read; beyond it the body is dropped unread (TransportError 'too-large'). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Time allowed for a whole response body after its headers (TransportError 'body-timeout'). */
export const DEFAULT_BODY_TIMEOUT_MS = 20_000;
/** Consecutive transport failures (no answer) that mean the target is down: the run stops as an outage. */
export const DEFAULT_OUTAGE_AFTER = 8;
/** How long every key may be paused by the target's Retry-After before the run ends rate-limited. */
export const DEFAULT_RATE_LIMIT_BUDGET_SECONDS = 120;

/** The profile's harness settings (all optional here; the schema fills the defaults). */
export interface HarnessSettings {
  requestTimeoutMs?: number;
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  outageAfter?: number;
  rateLimitBudgetSeconds?: number;
  /** A PEM file of the private CA that signs the target's certificate. */
  caFile?: string;
}

/** The ClientOptions the harness settings imply: spread into createApiClient({...}). */
export function clientLimits(h: HarnessSettings | undefined): {
  timeoutMs: number;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  rateLimitBudgetMs: number;
  caPem?: string;
} {
  return {
    timeoutMs: h?.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: h?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    bodyTimeoutMs: h?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    rateLimitBudgetMs: (h?.rateLimitBudgetSeconds ?? DEFAULT_RATE_LIMIT_BUDGET_SECONDS) * 1000,
    ...(h?.caFile ? { caPem: readCaFile(h.caFile) } : {}),
  };
}

/** "15 s", "0.2 s": a duration as an operator reads it. */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number(s.toFixed(s < 1 ? 2 : s < 10 ? 1 : 0))} s`;
}

/** "8388608 bytes (8 MiB)". */
export function formatBytes(n: number): string {
  const mib = n / (1024 * 1024);
  return mib >= 1 ? `${n} bytes (${Number(mib.toFixed(1))} MiB)` : `${n} bytes`;
}
