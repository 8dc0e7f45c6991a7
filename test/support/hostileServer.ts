// A small hostile target for tests: one node:http (or https) server whose
// behaviour is chosen per instance. 'healthy' answers GET …/capabilities/assets
// and GET …/pools like a minimal API and a 404 error envelope elsewhere — or,
// with `upstream`, forwards to a real target (the embedded reference) — and
// every other mode is a way a real target, gateway or network goes wrong.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { selfSignedCert } from './selfSignedCert.js';

export type HostileMode =
  /** A port that was free and is closed again: connections are refused. */
  | 'refused'
  /** Accepts the connection and reads the request, never answers. */
  | 'hang'
  /** Destroys the socket on every request. */
  | 'reset'
  /** 200 with content-type application/json and a body that does not parse. */
  | 'invalid-json'
  /** An HTML 502 from a gateway. */
  | 'html-502'
  /** 500 with the API's error envelope to everything. */
  | 'all-500'
  /** A gateway's JSON 404 for every path (a wrong base path). */
  | 'json-404'
  /** 302 to itself, forever. */
  | 'redirect-loop'
  /** 200 JSON headers at once, then one body byte per dripIntervalMs. */
  | 'drip'
  /** 200 JSON, then hugeBytes of body (chunked, with back-pressure). */
  | 'huge-body'
  /** A minimal API (see above). */
  | 'healthy'
  /** Healthy for the first healthyRequests requests, then hang. */
  | 'healthy-then-hang'
  /** Healthy, but requests healthyRequests+1 … healthyRequests+blipRequests are reset: a blip the target recovers from. */
  | 'blip'
  /** 429 with the error envelope and Retry-After to everything. */
  | 'rate-limited'
  /** 401 with the error envelope to everything (the profile's key is not known there). */
  | 'unauthorized'
  /** 200 JSON that is neither a list envelope nor { pools }. */
  | 'wrong-shape'
  /** Healthy for `healthyRequests`, then 429 with Retry-After to everything (a lockout mid-run). */
  | 'healthy-then-rate-limited';

export interface HostileOptions {
  mode: HostileMode;
  /** Serve https with a self-signed certificate made at start. */
  tls?: boolean;
  /** healthy-then-hang, blip: how many requests are answered first. Default 2. */
  healthyRequests?: number;
  /** blip: how many requests after the healthy ones are reset. Default 3. */
  blipRequests?: number;
  /** healthy: forward every request to this http origin (e.g. the embedded reference target) instead of the minimal API. */
  upstream?: string;
  /** huge-body: body size in bytes. Default 50 MB. */
  hugeBytes?: number;
  /** huge-body: also send Content-Length (the client can refuse before reading). Default false. */
  declareLength?: boolean;
  /** drip: ms between body bytes. Default 1000. */
  dripIntervalMs?: number;
  /** rate-limited: the Retry-After value. Default '3600'. */
  retryAfter?: string;
  /**
   * healthy: values the target echoes back in every answer — in the JSON body, raw and base64, in a
   * response header, and URL-encoded in a URL (a target leaking what it should not).
   */
  echo?: string[];
}

export interface SeenRequest {
  method: string;
  url: string;
  authorization?: string;
}

export interface HostileServer {
  /** scheme://127.0.0.1:port (no path). */
  origin: string;
  port: number;
  /** The certificate of a tls server (to trust it on purpose). */
  cert?: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const envelope = (status: number, type: string, message: string) => {
  const request_id = `req_${randomUUID()}`;
  return { body: JSON.stringify({ type, code: type, message, request_id, doc_url: null, statusCode: status }), request_id };
};

function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

function healthy(req: IncomingMessage, res: ServerResponse, echo: string[]): void {
  const path = (req.url ?? '/').split('?')[0]!;
  const echoed = echo.length
    ? {
        echo,
        echo_b64: echo.map((v) => Buffer.from(v).toString('base64')),
        next: `https://partner.example/callback?token=${echo.map(encodeURIComponent).join('&x=')}`,
      }
    : {};
  const extra: Record<string, string> = echo.length
    ? { 'x-echo': echo.join(' '), 'x-request-id': `req_${randomUUID()}` }
    : { 'x-request-id': `req_${randomUUID()}` };
  if (req.method === 'GET' && path.endsWith('/capabilities/assets'))
    return sendJson(res, 200, JSON.stringify({ object: 'list', data: [], has_more: false, url: '/v1/capabilities/assets', ...echoed }), extra);
  if (req.method === 'GET' && path.endsWith('/pools')) return sendJson(res, 200, JSON.stringify({ pools: [], ...echoed }), extra);
  const e = envelope(404, 'not_found', 'no such route');
  sendJson(res, 404, e.body, { ...extra, 'x-request-id': e.request_id });
}

/** Pass the request through to an http upstream and its answer back, bodies streamed both ways. */
function forward(req: IncomingMessage, res: ServerResponse, upstream: string): void {
  const up = new URL(upstream);
  const out = httpRequest({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  req.pipe(out);
}

export async function startHostile(opts: HostileOptions): Promise<HostileServer> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let count = 0;

  const serveHealthy = (req: IncomingMessage, res: ServerResponse) => {
    if (opts.upstream) return forward(req, res, opts.upstream);
    req.resume();
    healthy(req, res, opts.echo ?? []);
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    count++;
    const healthyFirst = opts.healthyRequests ?? 2;
    if (opts.mode === 'healthy' || ((opts.mode === 'healthy-then-hang' || opts.mode === 'healthy-then-rate-limited') && count <= healthyFirst))
      return serveHealthy(req, res);
    if (opts.mode === 'blip' && (count <= healthyFirst || count > healthyFirst + (opts.blipRequests ?? 3))) return serveHealthy(req, res);
    req.resume();
    switch (opts.mode) {
      case 'hang':
        return;
      case 'reset':
        return void req.socket.destroy();
      case 'invalid-json':
        return sendJson(res, 200, '{"object":"list","data":[{"id":');
      case 'html-502':
        res.writeHead(502, { 'content-type': 'text/html' });
        return void res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      case 'all-500': {
        const e = envelope(500, 'server_error', 'internal error');
        return sendJson(res, 500, e.body, { 'x-request-id': e.request_id });
      }
      case 'json-404':
        return sendJson(res, 404, JSON.stringify({ message: 'no Route matched with those values' }));
      case 'redirect-loop':
        res.writeHead(302, { location: `${origin}${req.url}` });
        return void res.end();
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        const body = '{"object":"list","data":[],"has_more":false,"url":"/v1/capabilities/assets"}';
        let i = 0;
        const t = setInterval(() => {
          if (res.destroyed || i >= body.length) {
            clearInterval(t);
            timers.delete(t);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(body[i++]);
        }, opts.dripIntervalMs ?? 1000);
        timers.add(t);
        return;
      }
      case 'huge-body': {
        const total = opts.hugeBytes ?? 50 * 1000 * 1000;
        res.writeHead(200, { 'content-type': 'application/json', ...(opts.declareLength ? { 'content-length': String(total) } : {}) });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        // Back-pressure: the server itself never holds more than a chunk or two.
        const pump = () => {
          while (sent < total && !res.destroyed) {
            const n = Math.min(chunk.length, total - sent);
            sent += n;
            if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        res.write('[');
        sent = 1;
        return pump();
      }
      case 'healthy-then-rate-limited':
      case 'rate-limited': {
        const e = envelope(429, 'rate_limited', 'rate limit exceeded');
        return sendJson(res, 429, e.body, { 'retry-after': opts.retryAfter ?? '3600', 'x-request-id': e.request_id });
      }
      case 'unauthorized': {
        const e = envelope(401, 'unauthorized', 'invalid API key');
        return sendJson(res, 401, e.body, { 'x-request-id': e.request_id });
      }
      case 'wrong-shape':
        return sendJson(res, 200, JSON.stringify({ status: 'ok', version: '1.2.3' }));
      case 'blip':
        return void req.socket.destroy();
      // Past its healthy requests: never answers.
      case 'healthy-then-hang':
      case 'refused':
        return;
    }
  };

  let server: Server;
  let cert: string | undefined;
  if (opts.tls) {
    const made = selfSignedCert();
    cert = made.cert;
    server = createHttpsServer({ key: made.key, cert: made.cert }, handler);
  } else {
    server = createHttpServer(handler);
  }
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Plain HTTP sent to the TLS port: the handshake fails and node drops the socket (as a real https server would).
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  const origin = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  const close = async () => {
    for (const t of timers) clearInterval(t);
    for (const s of sockets) s.destroy();
    await new Promise<void>((ok) => server.close(() => ok()));
  };
  if (opts.mode === 'refused') await close();
  return { origin, port, cert, seen, close: opts.mode === 'refused' ? async () => {} : close };
}
