// Minimal HTTP kit shared by both embedded services: a path router, the error
// envelope, JSON bodies and per-request ids. Kept small on purpose: the
// reference target must be fast (bench/reference-throughput.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type ErrorType = 'invalid_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'server_error';

const TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'invalid_request',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
  501: 'server_error',
};

/** Throw from a handler to answer with the error envelope. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly type: ErrorType = TYPE_BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'invalid_request'),
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export interface Req {
  method: string;
  /** Path below the base (the /v1 segment already removed), e.g. "/gate_sessions/gs_1". */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  /** Parsed JSON body; undefined when empty. Throws 400 lazily via json(). */
  params: Record<string, string>;
  requestId: string;
  raw: IncomingMessage;
  /** Environment of the base the request arrived on: sandbox = test, production = live. */
  env: 'test' | 'live';
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: Req) => Reply | Promise<Reply>;

interface Route {
  method: string;
  parts: string[];
  pattern: string;
  handler: Handler;
}

export class Router {
  private routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    const parts = pattern.split('/').filter(Boolean);
    this.routes.push({ method, parts, pattern: `/${parts.join('/')}`, handler });
    return this;
  }

  /** Every registered route (method and pattern), e.g. for fuzzing each one. */
  list(): { method: string; pattern: string }[] {
    return this.routes.map((r) => ({ method: r.method, pattern: r.pattern }));
  }

  /** Find the handler; `allowed` lists methods of a path that exists with another method. */
  match(
    method: string,
    path: string,
  ): { handler?: Handler; params: Record<string, string>; pathExists: boolean; /** The matched route pattern. */ pattern?: string } {
    const segs = path.split('/').filter(Boolean);
    let pathExists = false;
    for (const r of this.routes) {
      if (r.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segs.length; i++) {
        const p = r.parts[i]!;
        if (p.startsWith(':')) {
          try {
            params[p.slice(1)] = decodeURIComponent(segs[i]!);
          } catch {
            ok = false;
            break;
          }
        } else if (p !== segs[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      pathExists = true;
      if (r.method === method) return { handler: r.handler, params, pathExists, pattern: r.pattern };
    }
    return { params: {}, pathExists };
  }
}

export function readBody(req: IncomingMessage, limit = 1_000_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new HttpError(400, 'request body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The message of the 400 for a body that is not JSON at all. */
export const NOT_JSON = 'request body is not valid JSON';

/** Parse a JSON object body; 400 when it is not a JSON object. Empty body → {} when allowEmpty. */
export function jsonObject(req: Req, allowEmpty = false): Record<string, unknown> {
  if (req.rawBody.length === 0) {
    if (allowEmpty) return {};
    throw new HttpError(400, 'request body must be a JSON object');
  }
  let v: unknown;
  try {
    v = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw new HttpError(400, NOT_JSON);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new HttpError(400, 'request body must be a JSON object');
  return v as Record<string, unknown>;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A per-request id: a UUID, or (reference.requestIdStyle 'base62') 22 base-62 characters, about as many random bits. */
export function newRequestId(style: 'uuid' | 'base62' = 'uuid'): string {
  if (style === 'uuid') return randomUUID();
  return Array.from(randomBytes(22), (b) => BASE62[b % 62]).join('');
}

export function errorEnvelope(err: HttpError, requestId: string) {
  return {
    type: err.type,
    code: err.code ?? err.type,
    message: err.status >= 500 && err.status !== 501 ? 'An internal error occurred.' : err.message,
    request_id: requestId,
    doc_url: null,
    statusCode: err.status,
  };
}

export function send(res: ServerResponse, requestId: string, reply: Reply): void {
  const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
  const headers: Record<string, string | number> = {
    'x-request-id': requestId,
    ...(reply.headers ?? {}),
  };
  if (body) {
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = Buffer.byteLength(body);
  } else {
    headers['content-length'] = 0;
  }
  res.writeHead(reply.status, headers);
  res.end(body);
}

export function sendError(res: ServerResponse, requestId: string, err: HttpError): void {
  send(res, requestId, { status: err.status, body: errorEnvelope(err, requestId), headers: err.headers });
}
