// The report's view of one exchange: every secret masked, bodies cut to ~4 KB.
import type { Exchange } from '../wire/exchange.js';
import { redact, redactHeaders } from '../secrets/redact.js';
import type { ExchangeRecord } from './results.js';

export const EXCHANGE_BODY_LIMIT = 4096;

function truncate(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  if (s.length <= EXCHANGE_BODY_LIMIT) return s;
  return `${s.slice(0, EXCHANGE_BODY_LIMIT)}… [${s.length - EXCHANGE_BODY_LIMIT} more chars]`;
}

/** The report's view of one exchange: everything redacted, bodies truncated to ~4 KB. */
export function toExchangeRecord(ex: Exchange): ExchangeRecord {
  // Redact before truncating so a secret cut in half by the limit is still masked.
  return {
    method: ex.request.method,
    url: redact(ex.request.url),
    requestHeaders: redactHeaders(ex.request.headers),
    requestBody: truncate(ex.request.bodyText === undefined ? undefined : redact(ex.request.bodyText)),
    status: ex.status,
    responseHeaders: redactHeaders(ex.headers),
    responseBody: truncate(redact(ex.bodyText)),
    requestId: ex.requestId,
    durationMs: Math.round(ex.durationMs),
  };
}
