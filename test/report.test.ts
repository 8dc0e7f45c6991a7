import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { judged, withSummary } from './support/results.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { compareRuns, formatComparison } from '../src/report/compare.js';
import { readHistory } from '../src/report/history.js';
import { toHtml } from '../src/report/html.js';
import { toJunit } from '../src/report/junit.js';
import type { RunResults } from '../src/report/results.js';
import { scanDir, scanText } from '../src/secrets/index.js';
import { newRunId, writeRun } from '../src/report/writeRun.js';

// Planted secrets are assembled at runtime so this file itself never holds a secret-shaped literal.
const SK = ['sk', 'test', 'Zx81Qm2PlantedKey0001'].join('_');
const PK = ['pk', 'live', 'Plantedpublishable9'].join('_');
const GSEC = 'gsec' + '_plantedClientSecret-42';
const WHSEC = 'whsec' + '_plantedSigning+Secret/77=';
const JWT = 'eyJ' + 'hbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlcGxhbnRlZA';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function fixture(runId: string, opts: { failing: boolean; extraRequirement?: boolean }): RunResults {
  const failure = {
    message: `expected 409 got 200 using ${SK}`,
    requirement: 'GATE-SESS-CANCEL-TERMINAL-409',
    expected: '409 conflict <script>alert(1)</script>',
    actual: `200 {"token":"${JWT}"}`,
    requestId: 'req_abc123',
    exchanges: [
      {
        method: 'POST',
        url: `http://127.0.0.1:4010/v1/sessions/s_1/cancel?key=${SK}`,
        requestHeaders: { authorization: `Bearer ${SK}`, 'x-client-secret': GSEC },
        requestBody: JSON.stringify({ secret: WHSEC, pk: PK }),
        status: 200,
        responseHeaders: { 'x-request-id': 'req_abc123', 'content-type': 'application/json' },
        responseBody: JSON.stringify({ embedToken: JWT }),
        requestId: 'req_abc123',
        durationMs: 12,
      },
    ],
  };
  const requirements: RunResults['requirements'] = [
    {
      id: 'GATE-SESS-CANCEL-TERMINAL-409',
      service: 'gate',
      title: 'Cancelling a terminal session returns 409',
      section: 'Sessions',
      status: opts.failing ? 'failed' : 'passed',
      checks: [{ name: 'cancel a completed session', status: opts.failing ? 'failed' : 'passed', durationMs: 40, failure: opts.failing ? failure : undefined }],
    },
    {
      id: 'POOLS-TTL-ABOUT-15S',
      service: 'pools',
      title: 'Firm quotes live about 15 s',
      section: 'Quote TTL & "bounds"',
      status: 'skipped',
      reason: 'depth quick',
      checks: [{ name: 'quote ttl', status: 'skipped', durationMs: 0, reason: 'depth quick' }],
    },
    { id: 'GATE-ERR-ENVELOPE', service: 'gate', title: 'Errors use the envelope', section: 'Errors', status: 'not_covered', checks: [] },
  ];
  if (opts.extraRequirement)
    requirements.push({
      id: 'GATE-AUTH-BEARER',
      service: 'gate',
      title: 'Bearer auth',
      section: 'Auth',
      status: 'failed',
      checks: [{ name: 'bearer', status: 'failed', durationMs: 3, failure: { message: 'no 401' } }],
    });
  const count = (s: string) => requirements.filter((r) => r.status === s).length;
  return withSummary({
    runId,
    tool: { name: 'rampart', version: '0.1.0' },
    command: 'certify',
    depth: 'quick',
    startedAt: '2026-11-23T03:15:00.000Z',
    finishedAt: '2026-11-23T03:16:00.000Z',
    profile: { name: 'embedded', baseUrls: { gateSandbox: 'http://127.0.0.1:4010/v1', poolsSandbox: 'http://127.0.0.1:4020' } },
    environment: { node: process.version, platform: 'linux-x64', host: 'ci', specVersion: '2026-10' },
    requirements,
    checks: [
      {
        name: 'cancel a completed session',
        suite: 'conformance',
        file: 'gate/sessions.ts',
        requirements: ['GATE-SESS-CANCEL-TERMINAL-409'],
        status: opts.failing ? 'failed' : 'passed',
        durationMs: 40,
        failure: opts.failing ? failure : undefined,
      },
      {
        name: 'quote ttl "bounds" & <edge>',
        suite: 'load',
        requirements: ['POOLS-TTL-ABOUT-15S'],
        status: 'skipped',
        reason: 'depth quick & <no k6>',
        durationMs: 0,
      },
    ],
    observations: [
      { topic: 'GATE-SESS-X', service: 'gate', check: 'cancel', value: { header: `Authorization: Bearer ${SK}`, whsec: WHSEC }, note: `saw ${GSEC}` },
    ],
    metrics: { latency: { 'gate.sessions': { p50: 10, p90: 20, p95: 25, p99: 40, max: 80, count: 100 } } },
    error: opts.failing ? { message: `partial run; key ${SK} rejected`, exitCode: 1 } : undefined,
  });
}

/** Minimal XML well-formedness: balanced tags, quoted attributes, only the five entities. */
function assertWellFormedXml(xml: string): { tags: string[] } {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const tags: string[] = [];
  const tagRe = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  for (const m of body.matchAll(tagRe)) {
    const text = body.slice(last, m.index);
    expect(text).not.toMatch(/[<>]/);
    expect(text.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toContain('&');
    last = (m.index ?? 0) + m[0].length;
    const [, close, name, , self] = m;
    if (close) expect(stack.pop()).toBe(name);
    else if (!self) stack.push(name!);
    if (!close) tags.push(name!);
  }
  expect(body.slice(last).trim()).toBe('');
  expect(stack).toEqual([]);
  return { tags };
}

describe('secretScan', () => {
  it('finds every planted kind and ignores masked forms', () => {
    const text = `a ${SK} b ${PK} c ${GSEC} d ${WHSEC} e ${JWT} f Authorization: Bearer abcdefgh12345678`;
    const kinds = scanText(text).map((f) => f.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'secret key (sk_)',
        'publishable key (pk_)',
        'client secret (gsec_)',
        'webhook secret (whsec_)',
        'JWT-shaped token',
        'Authorization Bearer value',
      ]),
    );
    expect(scanText('Bearer sk_test_[redacted] gsec_[redacted] whsec_[redacted] eyJ[redacted] Bearer [redacted]')).toEqual([]);
  });
});

describe('writeRun', () => {
  const reportsDir = join(tmp, 'reports');
  const idA = newRunId(new Date('2026-11-23T03:15:00Z'));
  const idB = newRunId(new Date('2026-11-23T04:15:00Z'));

  it('newRunId is sortable, filesystem-safe and unique', () => {
    expect(idA).toMatch(/^20261123T031500Z-[0-9a-f]{4}$/);
    expect(idA < idB).toBe(true);
    const many = new Set(Array.from({ length: 50 }, () => newRunId(new Date('2026-11-23T03:15:00Z'))));
    expect(many.size).toBeGreaterThan(40);
  });

  it('writes results.json, junit.xml and report.html with no secret in any of them', async () => {
    const { dir, files } = await writeRun(fixture(idA, { failing: false }), { reportsDir });
    expect(dir).toBe(join(reportsDir, idA));
    expect(files.map((f) => f.split('/').pop())).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html']));
    expect(scanDir(dir)).toEqual([]);
    expect(scanDir(join(reportsDir, 'history'))).toEqual([]);
    for (const s of [SK, PK, GSEC, WHSEC, JWT]) for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(s);
  });

  it('redacts planted secrets in failure exchanges, observations and the run error', async () => {
    const { dir } = await writeRun(fixture(idB, { failing: true, extraRequirement: true }), { reportsDir });
    expect(scanDir(dir)).toEqual([]);
    const all = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    for (const s of [SK, PK, GSEC, WHSEC, JWT]) expect(all).not.toContain(s);
    const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    expect(r.error?.message).toContain('sk_test_[redacted]');
    expect(r.requirements[0]!.checks[0]!.failure!.exchanges![0]!.requestHeaders.authorization).not.toContain('Zx81');
    expect(JSON.stringify(r.observations)).toContain('[redacted]');
  });

  it('results.json has the documented shape', () => {
    const r = JSON.parse(readFileSync(join(reportsDir, idB, 'results.json'), 'utf8'));
    expect(r).toMatchObject({
      runId: idB,
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      profile: { name: 'embedded', baseUrls: expect.any(Object) },
    });
    expect(Object.keys(r.summary)).toEqual(expect.arrayContaining(['passed', 'failed', 'skipped', 'notCovered']));
    expect(r.summary).toMatchObject({ passed: 0, failed: 2, skipped: 1, notCovered: 1 });
    for (const q of r.requirements) {
      expect(q).toMatchObject({
        id: expect.stringMatching(/^(GATE|POOLS)-[A-Z0-9-]+$/),
        service: expect.stringMatching(/^(gate|pools)$/),
        title: expect.any(String),
        section: expect.any(String),
      });
      expect(['passed', 'failed', 'skipped', 'not_covered']).toContain(q.status);
      for (const c of q.checks)
        expect(c).toMatchObject({ name: expect.any(String), status: expect.stringMatching(/^(passed|failed|skipped)$/), durationMs: expect.any(Number) });
    }
    expect(r.requirements.find((q: { status: string }) => q.status === 'skipped').reason).toBe('depth quick');
    expect(Array.isArray(r.observations)).toBe(true);
  });

  it('junit.xml is well-formed with one testcase per check, requirement ids, failure and skipped', () => {
    const xml = readFileSync(join(reportsDir, idB, 'junit.xml'), 'utf8');
    const { tags } = assertWellFormedXml(xml);
    expect(tags.filter((t) => t === 'testcase').length).toBe(2 + 1); // two checks + the run error
    expect(xml).toContain('name="conformance.gate"');
    expect(xml).toContain('name="load.pools"');
    expect(xml).toContain('cancel a completed session [GATE-SESS-CANCEL-TERMINAL-409]');
    expect(xml).toContain('<property name="requirement" value="GATE-SESS-CANCEL-TERMINAL-409"/>');
    expect(xml).toMatch(/<failure message="[^"]*expected 409 conflict &lt;script&gt;[^"]*request id req_abc123"/);
    expect(xml).toContain('<skipped message="skipped: depth quick &amp; &lt;no k6&gt;"/>');
    expect(xml).not.toContain('<script>');
  });

  it('junit escapes control characters and quotes', () => {
    const r = fixture('x', { failing: true });
    r.checks[0]!.failure!.message = 'bad \u0001 "quoted" \'single\'';
    assertWellFormedXml(toJunit(r));
  });

  it('reports/latest points at the newest run', () => {
    const latest = join(reportsDir, 'latest');
    expect(lstatSync(latest).isSymbolicLink()).toBe(true);
    expect(realpathSync(latest)).toBe(realpathSync(join(reportsDir, idB)));
    expect(existsSync(join(latest, 'report.html'))).toBe(true);
  });

  it('history grows by one compact record per run', async () => {
    const before = readHistory(reportsDir);
    expect(before.map((h) => h.runId)).toEqual([idA, idB]);
    expect(before[0]!.p95ByGroup).toEqual({ 'gate.sessions': 25 });
    const idC = newRunId(new Date('2026-11-23T05:15:00Z'));
    await writeRun(fixture(idC, { failing: false }), { reportsDir });
    expect(readHistory(reportsDir).map((h) => h.runId)).toEqual([idA, idB, idC]);
    expect(readHistory(reportsDir, 2).map((h) => h.runId)).toEqual([idB, idC]);
    writeFileSync(join(reportsDir, 'history', 'zzz-broken.json'), '{not json');
    expect(readHistory(reportsDir)).toHaveLength(3);
  });

  it('masks a secret in a file another suite left in the run directory', async () => {
    const idD = newRunId(new Date('2026-11-23T06:15:00Z'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(reportsDir, idD, 'k6'), { recursive: true });
    writeFileSync(join(reportsDir, idD, 'k6', 'summary.json'), JSON.stringify({ key: SK }));
    const { dir } = await writeRun(fixture(idD, { failing: false }), { reportsDir });
    expect(readFileSync(join(dir, 'k6', 'summary.json'), 'utf8')).not.toContain(SK);
    expect(scanDir(dir)).toEqual([]);
  });
});

describe('writeRun masking and refusal', () => {
  it('masks an opaque Authorization Bearer value no known shape catches', async () => {
    const r = fixture(newRunId(), { failing: false });
    r.observations.push({
      topic: 'raw',
      service: 'gate',
      value: { authorization: 'Bearer opaqueToken987654321' },
      note: 'Authorization: Bearer opaqueToken987654321',
    });
    const { dir } = await writeRun(r, { reportsDir: join(tmp, 'opaque') });
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toContain('opaqueToken987654321');
    expect(scanDir(dir)).toEqual([]);
  });

  it('throws naming the file and kind, never the secret, when redaction misses a secret', async () => {
    // Simulates a redaction gap: the scan is the last line of defence and must stop the write.
    vi.resetModules();
    vi.doMock('../src/secrets/index.js', async (importOriginal) => ({
      ...(await importOriginal<object>()),
      redact: (t: string) => t,
      redactDeep: <T>(v: T) => v,
      maskAuthorizationBearer: (t: string) => t,
    }));
    try {
      const { writeRun: writeUnredacted } = await import('../src/report/writeRun.js');
      const r = fixture(newRunId(), { failing: false });
      const err = await writeUnredacted(r, { reportsDir: join(tmp, 'refuse') }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/^secret scan: .*webhook secret \(whsec_\) in results\.json/);
      for (const s of [SK, PK, GSEC, WHSEC, JWT]) expect(err?.message).not.toContain(s);
      expect(existsSync(join(tmp, 'refuse', r.runId, 'results.json'))).toBe(false);
    } finally {
      vi.doUnmock('../src/secrets/index.js');
      vi.resetModules();
    }
  });
});

describe('toHtml', () => {
  it('escapes target-controlled text', () => {
    const html = toHtml(fixture('r1', { failing: true }));
    expect(html).toContain('409 conflict &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('NOT CERTIFIED');
    expect(scanText(html)).toEqual([]);
  });

  it('says "no data in this run" for every absent chart metric', () => {
    const r = fixture('r2', { failing: false });
    delete r.metrics;
    const html = toHtml(r);
    expect(html.match(/no data in this run/g)?.length).toBeGreaterThanOrEqual(5);
    // A skipped and a not-covered requirement: never CERTIFIED, and the banner says why.
    expect(r.summary.verdict).toBe('INCOMPLETE');
    expect(html).toContain('<div class="big">INCOMPLETE</div>');
    expect(html).not.toContain('>CERTIFIED<');
  });
});

describe('toHtml, reviewer first', () => {
  const REPRO = {
    command: `curl -sS -i -w '\\n' -X POST 'http://127.0.0.1:4010/v1/gate_sessions/s_1/cancel' \\\n  -H 'authorization: Bearer '"\${GATE_SK_1}"`,
    env: ['GATE_SK_1'],
    notes: ['set GATE_SK_1 <first>'],
    steps: `# step 1/2: POST /v1/gate_sessions → 201\ncurl -X POST x\n\n# step 2/2: POST /v1/gate_sessions/s_1/cancel → 200\ncurl -X POST y`,
  };
  function reviewed(): RunResults {
    const r = fixture('rv', { failing: true, extraRequirement: true });
    r.checks[0]!.failure!.reproduce = REPRO;
    r.checks[0]!.failure!.expected = '409 {"type":"conflict","status":"open"}';
    r.checks[0]!.failure!.actual = '200 {"type":"conflict","status":"cancelled"}';
    r.checks.push({
      name: 'bearer',
      suite: 'conformance',
      requirements: ['GATE-AUTH-BEARER'],
      status: 'failed',
      durationMs: 3,
      failure: { message: 'no 401' },
    });
    r.summary = withSummary(r).summary;
    r.observations.push(
      { topic: 'GATE-EMBED-CROSS-PARTNER', service: 'gate', check: 'embed a', value: 403 },
      { topic: 'GATE-EMBED-CROSS-PARTNER', service: 'gate', check: 'embed b', value: 404 },
      { topic: 'GATE-EMBED-CROSS-PARTNER', service: 'gate', check: 'embed c', value: 404 },
    );
    r.metrics = {
      ...r.metrics,
      k6Dashboards: {
        smoke: ['k6/smoke/dashboard.html'],
        'rate-limits': ['k6/rate-limits/segment-1/dashboard.html', 'k6/rate-limits/segment-2/dashboard.html'],
        evil: ['javascript:alert(1).html', '../../etc/x.html', '/abs.html'],
      },
    };
    return r;
  }

  it("reads in a reviewer's order: verdict, failures, not asserted, matrix, observations, charts, trend, spec map", () => {
    const html = toHtml(reviewed());
    const at = (marker: string) => {
      const i = html.indexOf(marker);
      expect(i, marker).toBeGreaterThan(0);
      return i;
    };
    const order = ['id="verdict"', 'id="failures"', 'id="not-asserted"', 'id="matrix"', 'id="observations"', 'id="charts"', 'id="trend"', 'id="specmap"'].map(
      at,
    );
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The first failure card comes before any requirement row.
    expect(at('class="failure"')).toBeLessThan(at('<tr id="GATE-'));
  });

  it('the banner states the verdict, depth, time scale and what was out of scope', () => {
    const r = reviewed();
    r.summary.timeScales = { retryScale: 0.001, rateWindowScale: 1 };
    const banner = toHtml(r).split('id="verdict"')[1]!.split('</section>')[0]!;
    expect(banner).toContain('<div class="big">NOT CERTIFIED</div>');
    expect(banner).toContain('2 requirements failed');
    expect(banner).toContain('<dt>depth</dt><dd>--depth quick: the long real-time windows need --depth full</dd>');
    expect(banner).toContain('<dt>time</dt><dd>time-scaled: retry schedule ×0.001</dd>');
    // certify runs every suite: only what --grep left out of the catalogue is named.
    const gate = CATALOGUE.filter((q) => q.service === 'gate');
    const named = r.requirements.filter((q) => gate.some((g) => g.id === q.id)).length;
    expect(banner).toContain(`<dt>out of scope</dt><dd>Gate: ${gate.length - named} of ${gate.length} requirements not selected (--grep);`);
    expect(banner).toContain('The run stopped: partial run; key sk_test_[redacted] rejected (exit 1)');
    const conformance = reviewed();
    conformance.command = 'conformance';
    conformance.summary.timeScales = undefined;
    const b2 = toHtml(conformance).split('id="verdict"')[1]!.split('</section>')[0]!;
    expect(b2).toContain('<dt>time</dt><dd>real time: the target declares no time scale</dd>');
    expect(b2).toMatch(/\d+ chaos and load requirements are not part of rampart conformance/);
  });

  it('each failure shows the diff of expected and actual and its reproduction command with a copy button, escaped', () => {
    const html = toHtml(reviewed());
    const cards = html
      .split('<article class="failure" id="failure-')
      .slice(1)
      .map((c) => c.split('</article>')[0]!);
    // Sorted by the requirement that broke.
    expect(cards.map((c) => /<h3><code>([A-Z0-9-]+)<\/code>/.exec(c)?.[1])).toEqual(['GATE-AUTH-BEARER', 'GATE-SESS-CANCEL-TERMINAL-409']);
    const card = cards[1]!;
    expect(card).toContain('<code>GATE-SESS-CANCEL-TERMINAL-409</code> cancel a completed session');
    // The status line and the one differing field are removed and added; the rest kept.
    expect(card).toContain('<span class="d-del"><span class="d-sign">-</span>409</span><span class="d-add"><span class="d-sign">+</span>200</span>');
    expect(card).toContain('&quot;status&quot;: &quot;<mark>open</mark>&quot;');
    expect(card).toContain('&quot;status&quot;: &quot;<mark>cancelled</mark>&quot;');
    expect(card).toContain('<span class="d-same"><span class="d-sign"> </span>  &quot;type&quot;: &quot;conflict&quot;,</span>');
    const cmd = /<pre class="cmd" id="(failure-\d+-cmd)">([^<]*)<\/pre>/.exec(card);
    expect(cmd).not.toBeNull();
    expect(card).toContain(`<button type="button" class="copy" data-copy="${cmd![1]}" hidden>copy</button>`);
    const unescape = (t: string) =>
      t
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    expect(unescape(cmd![2]!)).toBe(REPRO.command);
    expect(card).toContain('Set first: <code>GATE_SK_1</code>');
    expect(card).toContain('<li>set GATE_SK_1 &lt;first&gt;</li>');
    expect(card).toMatch(/<summary>the 2 requests of this check up to the failure/);
    expect(card).toContain('id="failure-2-steps"');
    // A failure without a command says why.
    expect(html).toContain('No command to replay: this failure was not judged on one recorded request.');
    // The matrix links the failed check to its card.
    expect(html).toMatch(/cancel a completed session — failed <a href="#failure-2">see the failure<\/a>/);
    expect(scanText(html)).toEqual([]);
  });

  it("not asserted, by reason: the verdict's groups with the requirement ids of each", () => {
    const r = fixture('na', { failing: false });
    const html = toHtml(r);
    const section = html.split('id="not-asserted"')[1]!.split('<h2')[0]!;
    expect(r.summary.incompleteReasons).toEqual([
      { reason: 'skipped: depth quick', requirements: 1 },
      { reason: 'not covered: no reason given', requirements: 1 },
    ]);
    expect(section).toContain(
      '<li data-filterable><b>1</b> — skipped: depth quick <span class="small"><a href="#POOLS-TTL-ABOUT-15S"><code>POOLS-TTL-ABOUT-15S</code></a></span></li>',
    );
    expect(section).toContain('<a href="#GATE-ERR-ENVELOPE">');
  });

  it("not asserted: a partial requirement is listed under the verdict's reason, with its id", () => {
    const base = fixture('np', { failing: false });
    const r = judged({
      ...base,
      checks: [
        { name: 'expire half', suite: 'conformance', requirements: ['GATE-SESS-CANCEL-TERMINAL-409'], status: 'passed', durationMs: 1 },
        {
          name: 'expired half',
          suite: 'conformance',
          requirements: ['GATE-SESS-CANCEL-TERMINAL-409'],
          status: 'skipped',
          reason: 'no expire trigger',
          durationMs: 0,
        },
        {
          name: 'unreachable',
          suite: 'conformance',
          requirements: ['GATE-ERR-5XX-SCRUBBED'],
          status: 'unverified',
          reason: 'no 5xx could be provoked',
          durationMs: 0,
        },
      ],
    });
    expect(r.summary.incompleteReasons.map((g) => g.reason).sort()).toEqual(['partial: skipped — no expire trigger', 'unverified: no 5xx could be provoked']);
    const section = toHtml(r).split('id="not-asserted"')[1]!.split('<h2')[0]!;
    expect(section).toContain('<b>1</b> — partial: skipped — no expire trigger <span class="small"><a href="#GATE-SESS-CANCEL-TERMINAL-409">');
    expect(section).toContain('<b>1</b> — unverified: no 5xx could be provoked <span class="small"><a href="#GATE-ERR-5XX-SCRUBBED">');
  });

  it('observations are grouped by topic with their count and distinct values', () => {
    const html = toHtml(reviewed());
    const section = html.split('id="observations"')[1]!.split('id="charts"')[0]!;
    expect(section).toContain('4 in 2 topics');
    expect(section).toContain('<summary><code>GATE-EMBED-CROSS-PARTNER</code> <span class="small">gate · 3 observations · 2 distinct values</span></summary>');
    // One reading across a topic shows in its summary line, so the list reads without opening it.
    expect(section).toMatch(
      /<summary><code>GATE-SESS-X<\/code> <span class="small">gate · 1 observation · 1 distinct value · <code>\{&quot;header&quot;:&quot;Authorization: Bearer sk_test_\[redacted\]&quot;,&quot;whsec&quot;:&quot;whsec_\[redacted\]&quot;\}<\/code><\/span><\/summary>/,
    );
    expect(section.match(/<tr data-filterable>/g)).toHaveLength(4);
  });

  it("links each k6 scenario's dashboard relative to the run directory, and nothing that is not a plain relative path", () => {
    const html = toHtml(reviewed());
    expect(html).toContain('<a href="k6/smoke/dashboard.html">dashboard</a>');
    expect(html).toContain('<a href="k6/rate-limits/segment-1/dashboard.html">segment 1</a>');
    expect(html).toContain('<a href="k6/rate-limits/segment-2/dashboard.html">segment 2</a>');
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('etc/x.html');
    expect(html).not.toContain('href="/abs.html"');
    expect(html).not.toContain('<b>evil</b>');
  });

  it('has a filter box over failures, requirement rows and observations, hidden until the inline script shows it', () => {
    const html = toHtml(reviewed());
    expect(html).toContain('<div id="filterbar" hidden><input id="filter" type="search"');
    expect(html.match(/<article class="failure"[^>]* data-filterable>/g)).toHaveLength(2);
    expect(html.match(/<tr id="[A-Z0-9-]+" class="st-[a-z_]+" data-filterable>/g)).toHaveLength(4);
    // One file: no external script, style or image, and the CSP forbids fetching any.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src="(?!data:)/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
  });
});

describe('compareRuns', () => {
  it('lists new failures first', () => {
    const a = fixture('a', { failing: false });
    const b = fixture('b', { failing: true, extraRequirement: true });
    const diff = compareRuns(a, b);
    expect(diff.newFailures.map((c) => c.id)).toEqual(['GATE-AUTH-BEARER', 'GATE-SESS-CANCEL-TERMINAL-409']);
    expect(diff.added.map((c) => c.id)).toEqual(['GATE-AUTH-BEARER']);
    expect(diff.summaryDelta).toEqual({ passed: -1, failed: 2, skipped: 0, notCovered: 0 });
    const text = formatComparison(diff);
    expect(text.indexOf('NEW FAILURES')).toBeGreaterThan(0);
    expect(text.indexOf('NEW FAILURES')).toBeLessThan(text.indexOf('added requirements'));
    const back = compareRuns(b, a);
    expect(back.newFailures).toEqual([]);
    expect(back.fixed.map((c) => c.id)).toEqual(['GATE-SESS-CANCEL-TERMINAL-409']);
    expect(back.removed.map((c) => c.id)).toEqual(['GATE-AUTH-BEARER']);
    expect(formatComparison(compareRuns(a, a))).toContain('no requirement changed status');
    expect(formatComparison(diff)).toContain('run b stopped: partial run');
  });
});
