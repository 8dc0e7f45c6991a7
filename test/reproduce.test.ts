// Reproduction commands: run as printed (sh -c, the env var set), they get the
// same answer again; the secret is never in the command; quotes survive.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import { toExchangeRecord } from '../src/report/exchangeRecord.js';
import type { ApiClient } from '../src/client/types.js';
import { envVarForSecret, parseProfile } from '../src/profile/load.js';
import { curlFor, reproduceSteps, shellWord } from '../src/report/reproduce.js';
import { scanText } from '../src/secrets/index.js';

// Assembled at runtime so this file holds no secret-shaped literal.
const SECRET = ['sk', 'test', 'Repro000000000000000000000000042'].join('_');
const LITERAL_SECRET = ['sk', 'test', 'Literal0000000000000000000000077'].join('_');
const VAR = 'RAMPART_REPRO_GATE_SK';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-repro-'));
let server: Server;
let base = '';
/** What the server last received, to compare a replay with the original. */
const seen: { method: string; url: string; auth?: string; idem?: string; body: string }[] = [];

beforeAll(async () => {
  // A fixed error: 409 for the right key, 401 otherwise (so a missing variable shows).
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const auth = req.headers.authorization;
      seen.push({
        method: req.method!,
        url: req.url!,
        auth,
        idem: req.headers['idempotency-key'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const ok = auth === `Bearer ${SECRET}` || auth === `Bearer ${LITERAL_SECRET}`;
      const status = ok ? 409 : 401;
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_fixed' });
      res.end(
        JSON.stringify({
          type: ok ? 'conflict' : 'unauthorized',
          code: ok ? 'conflict' : 'unauthorized',
          message: 'fixed',
          request_id: 'req_fixed',
          doc_url: null,
          statusCode: status,
        }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  rmSync(tmp, { recursive: true, force: true });
});

/** A profile whose first partner's key comes from ${VAR}: load.ts records the variable's name. */
function loadProfileWithVar(): void {
  const raw = JSON.parse(readFileSync('fixtures/profiles/embedded.json', 'utf8'));
  raw.gate.partners[0].secretKey = `\${${VAR}}`;
  parseProfile(raw, 'repro-test', { ...process.env, [VAR]: SECRET });
}

function client(secretKey: string): ApiClient {
  return createApiClient({ service: 'gate', baseUrl: base, label: 'gate-01', secretKey });
}

function sh(command: string, env: Record<string, string | undefined>, cwd = tmp): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('sh', ['-c', command], { cwd, timeout: 20_000, env: { PATH: process.env.PATH, ...env } }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

const statusOf = (curlOutput: string) => Number(/^HTTP\/[\d.]+ (\d{3})/.exec(curlOutput)?.[1]);

describe('curlFor', () => {
  it('profile load records which variable a secret came from (the name only)', () => {
    loadProfileWithVar();
    expect(envVarForSecret(SECRET)).toBe(VAR);
    expect(envVarForSecret(LITERAL_SECRET)).toBeUndefined();
  });

  it('replays the failing request with sh -c and the variable set: same status, same body bytes, same Idempotency-Key', async () => {
    loadProfileWithVar();
    const body = { note: `it's "quoted" $HOME \`id\` \\ back\nslash`, amount: '25.00' };
    const original = await client(SECRET).post('/gate_sessions', body, { idempotencyKey: true });
    expect(original.status).toBe(409);
    const sent = seen.at(-1)!;

    const rep = curlFor(original, { partner: 'gate-01' });
    expect(rep.command).toContain(`"\${${VAR}}"`);
    expect(rep.command).not.toContain(SECRET);
    expect(scanText(rep.command)).toEqual([]);
    expect(rep.env).toEqual([VAR]);
    expect(rep.command).toContain(`idempotency-key: ${original.request.idempotencyKey}`);

    const replay = await sh(rep.command, { [VAR]: SECRET });
    expect(replay.code, replay.stderr).toBe(0);
    expect(statusOf(replay.stdout)).toBe(409);
    const got = seen.at(-1)!;
    expect(got).toEqual(sent);

    // Without the variable the key is not there: the fixed server answers 401, so the variable is what carries it.
    const without = await sh(rep.command, {});
    expect(statusOf(without.stdout)).toBe(401);
  });

  it('a key the profile holds literally becomes a named placeholder variable with a note, never the key', async () => {
    const ex = await client(LITERAL_SECRET).get('/gate_sessions/gs_1', { expand: 'x y' });
    const rep = curlFor(ex, { partner: 'gate-01' });
    expect(rep.command).not.toContain(LITERAL_SECRET);
    expect(rep.env).toEqual(['RAMPART_SECRET_GATE_01']);
    expect(rep.notes.join(' ')).toMatch(/set RAMPART_SECRET_GATE_01 to gate-01's test secret key/);
    expect(rep.command.startsWith("curl -sS -i -w '\\n' '")).toBe(true);
    const replay = await sh(rep.command, { RAMPART_SECRET_GATE_01: LITERAL_SECRET });
    expect(statusOf(replay.stdout)).toBe(409);
    expect(seen.at(-1)!.url).toBe('/v1/gate_sessions/gs_1?expand=x+y');
  });

  it('a malformed credential sent on purpose is replayed as sent (it is no secret)', async () => {
    const ex = await client(SECRET).get('/branding', undefined, { auth: { bearer: 'not-a-key' }, retry: false });
    const rep = curlFor(ex);
    expect(rep.command).toContain("-H 'authorization: Bearer not-a-key'");
    expect(rep.env).toEqual([]);
    expect(statusOf((await sh(rep.command, {})).stdout)).toBe(401);
  });

  it('a body over 2 KB goes to a file next to the report (@file), and the replay sends the same bytes', async () => {
    loadProfileWithVar();
    const runDir = mkdtempSync(join(tmp, 'run-'));
    const big = { items: Array.from({ length: 200 }, (_, i) => ({ i, text: `it's item ${i}` })) };
    const original = await client(SECRET).post('/customers', big, { idempotencyKey: 'idem-big-1' });
    const sent = seen.at(-1)!;
    expect(Buffer.byteLength(sent.body)).toBeGreaterThan(2048);
    const rep = curlFor(original, { partner: 'gate-01', runDir, bodyName: 'create a customer' });
    expect(rep.bodyFile).toBe('repro/create-a-customer.body');
    expect(rep.command).toContain("--data-binary @'repro/create-a-customer.body'");
    expect(readFileSync(join(runDir, rep.bodyFile!), 'utf8')).toBe(sent.body);
    expect(rep.notes.join(' ')).toMatch(/run it from the run directory/);
    const replay = await sh(rep.command, { [VAR]: SECRET }, runDir);
    expect(statusOf(replay.stdout)).toBe(409);
    expect(seen.at(-1)).toEqual(sent);
  });

  it("from a report's redacted ExchangeRecord: a placeholder for the masked key and a note", async () => {
    const ex = await client(SECRET).post('/gate_sessions/gs_1/cancel', undefined);
    const record = toExchangeRecord(ex);
    const rep = curlFor(record, { partner: 'gate-07' });
    expect(rep.env).toEqual(['RAMPART_SECRET_GATE_07']);
    expect(rep.notes).toContain("set RAMPART_SECRET_GATE_07 to gate-07's test secret key");
    expect(rep.command).toMatch(/^curl -sS -i -w '\\n' -X POST '/);
    expect(rep.command).not.toContain('[redacted]');
    const replay = await sh(rep.command, { RAMPART_SECRET_GATE_07: SECRET });
    expect(statusOf(replay.stdout)).toBe(409);
  });

  it('a secret inside a body that came from no variable is masked and the note says so', async () => {
    const gsec = 'gsec' + '_abcdefghijklmnop';
    const ex = await client(SECRET).post('/embed/bootstrap', { clientSecret: gsec });
    const rep = curlFor(ex, { partner: 'gate-01' });
    expect(rep.command).not.toContain(gsec);
    expect(rep.command).toContain('gsec_[redacted]');
    expect(rep.notes.join(' ')).toMatch(/the body held a secret rampart cannot name/);
  });

  it('reproduceSteps lists the steps before a stateful failure, in order, with their statuses', async () => {
    loadProfileWithVar();
    const a = await client(SECRET).post('/gate_sessions', { amount: '1.00' }, { idempotencyKey: 'idem-a' });
    const b = await client(SECRET).post('/gate_sessions/gs_9/cancel', undefined);
    const rep = reproduceSteps([a, b], { partner: 'gate-01' });
    expect(rep.command.split('\n').filter((l) => l.startsWith('# step'))).toEqual([
      '# step 1/2: POST /v1/gate_sessions → 409',
      '# step 2/2: POST /v1/gate_sessions/gs_9/cancel → 409',
    ]);
    expect(rep.notes[0]).toMatch(/ids in later steps/);
    // The notes head the script as comments, so they survive where only the command is kept.
    expect(rep.command.split('\n')[0]).toBe(`# note: ${rep.notes[0]}`);
    const replay = await sh(rep.command, { [VAR]: SECRET });
    expect(replay.stdout.match(/^HTTP\/[\d.]+ 409/gm)).toHaveLength(2);
  });
});

describe('shellWord', () => {
  it.each([["it's"], ['"double" and \'single\''], ['$HOME ${PATH} `id` $(id)'], ["back\\slash and \\'mixed"], ['new\nline\ttab'], [''], ["'''"]])(
    'round-trips %j through sh unchanged',
    async (text) => {
      const r = await sh(`printf %s ${shellWord([{ lit: text }])}`, {});
      expect(r.stdout).toBe(text);
    },
  );

  it('splices a variable between literals', async () => {
    const r = await sh(`printf %s ${shellWord([{ lit: "a'" }, { env: 'X_VAR' }, { lit: '"b' }])}`, { X_VAR: 'v a l' });
    expect(r.stdout).toBe(`a'v a l"b`);
  });
});
