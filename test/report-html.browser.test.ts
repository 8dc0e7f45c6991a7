// Opens a full report.html in headless Chromium: no console errors, no network
// requests, the verdict first and readable, the failures before the matrix,
// the copy button copying the reproduction command, the filter box filtering,
// the k6 dashboard link opening; screenshots for humans in .tmp/.
import { withSummary } from './support/results.js';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResults } from '../src/report/results.js';
import { newRunId, writeRun } from '../src/report/writeRun.js';

// Debian's chromium package, wherever PATH finds it (CHROMIUM_PATH names another).
const onPath = (name: string) =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((p) => existsSync(p));
const chromium = [process.env.CHROMIUM_PATH, onPath('chromium'), onPath('chromium-browser')].find((p): p is string => !!p && existsSync(p));
const tmp = mkdtempSync(join(tmpdir(), 'rampart-html-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const failureCommand = `curl -sS -i -w '\\n' -X POST 'http://127.0.0.1:4010/v1/gate_sessions/gs_1/cancel' \\\n  -H 'authorization: Bearer '"\${GATE_SK_1}"`;

function richResults(runId: string, passedCount: number): RunResults {
  const failure = {
    message: 'status differs',
    requirement: 'GATE-SESS-CANCEL-TERMINAL-409',
    expected: '409 with error.type "conflict"',
    actual: '200 <img src=x onerror=alert(1)>',
    requestId: 'req_0001',
    exchanges: [
      {
        method: 'POST',
        url: 'http://127.0.0.1:4010/v1/sessions/gs_1/cancel',
        requestHeaders: { authorization: 'Bearer sk_test_[redacted]', 'idempotency-key': '7d1e…' },
        requestBody: '{}',
        status: 200,
        responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'req_0001' },
        responseBody: '{"id":"gs_1","status":"completed","note":"</pre><script>alert(2)</script>"}',
        requestId: 'req_0001',
        durationMs: 14,
      },
    ],
    reproduce: {
      command: failureCommand,
      env: ['GATE_SK_1'],
      notes: [],
      steps: `# step 1/2: POST /v1/gate_sessions → 201\ncurl -X POST one\n\n# step 2/2: POST /v1/gate_sessions/gs_1/cancel → 200\ncurl -X POST two`,
    },
  };
  return withSummary({
    runId,
    tool: { name: 'rampart', version: '0.1.0' },
    command: 'certify',
    depth: 'full',
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    profile: { name: 'embedded', baseUrls: { gateSandbox: 'http://127.0.0.1:4010/v1', poolsSandbox: 'http://127.0.0.1:4020' } },
    environment: { node: process.version, platform: 'linux-x64', host: 'ci', specVersion: '2026-10' },
    requirements: [
      {
        id: 'GATE-SESS-CANCEL-TERMINAL-409',
        service: 'gate',
        title: 'Cancel of a terminal session is 409',
        section: 'Sessions',
        status: 'failed',
        checks: [{ name: 'cancel completed', status: 'failed', durationMs: 30, failure }],
      },
      {
        id: 'GATE-ERR-ENVELOPE',
        service: 'gate',
        title: 'Error envelope',
        section: 'Errors',
        status: 'passed',
        checks: [{ name: 'envelope', status: 'passed', durationMs: 5 }],
      },
      { id: 'POOLS-TTL-ABOUT-15S', service: 'pools', title: 'Quote TTL about 15 s', section: 'Quotes', status: 'skipped', reason: 'depth quick', checks: [] },
      { id: 'POOLS-BAL-SHAPE', service: 'pools', title: 'Balance shape', section: 'Balances', status: 'not_covered', checks: [] },
    ],
    checks: [{ name: 'cancel completed', suite: 'conformance', requirements: ['GATE-SESS-CANCEL-TERMINAL-409'], status: 'failed', durationMs: 30, failure }],
    observations: [
      { topic: 'POOLS-SQ-CONSUMED-NEW-KEY', service: 'pools', check: 'transact twice', value: { reading: 'existing trade' }, note: 'endpoint rule 3 reading' },
      { topic: 'gate-embed-foreign-status', service: 'gate', check: 'embed a', value: 404 },
      { topic: 'gate-embed-foreign-status', service: 'gate', check: 'embed b', value: 403 },
    ],
    metrics: {
      k6Dashboards: { smoke: ['k6/smoke/dashboard.html'] },
      latency: {
        'gate.sessions': { p50: 8, p90: 15, p95: 21, p99: 40, max: 95, count: 400 },
        'pools.quote': { p50: 12, p90: 30, p95: 45 + passedCount, p99: 80, max: 120, count: 900 },
      },
      rateLimits: [
        { scenario: 'burst', key: 'partner-01', window: '10s', documented: { limit: 10, windowMs: 10_000 }, measured: { firstRejectedRequest: 11, atMs: 420 } },
        {
          scenario: 'rate-limits',
          case: 'minute',
          window: '1m',
          documented: { limit: 60, windowMs: 60_000, firstRejectedRequest: 61 },
          measured: { firstRejectedRequest: 63, atMs: 3100 },
        },
      ],
      quoteTtl: { samplesSeconds: [14.2, 14.8, 15.1, 15.0, 15.6, 16.9, 13.9, 15.2], toleranceSeconds: 2, expectedSeconds: 15 },
      retryGaps: [
        { delivery: 'whd_1', attempt: 1, expectedMs: 60_000, observedMs: 61_000 },
        { delivery: 'whd_1', attempt: 2, expectedMs: 300_000, observedMs: 298_500 },
      ],
    },
  });
}

describe('report.html', () => {
  it.skipIf(!chromium)(
    chromium
      ? `report.html in headless Chromium (${chromium})`
      : "report.html in headless Chromium (skipped: no chromium binary; install Debian's chromium or set CHROMIUM_PATH)",
    async () => {
      const { chromium: pw } = await import('playwright-core');
      const reportsDir = join(tmp, 'reports');
      // Two earlier runs so the trend chart has lines.
      for (const [i, at] of ['2026-11-21T03:00:00Z', '2026-11-22T03:00:00Z'].entries())
        await writeRun(richResults(newRunId(new Date(at)), 10 + i), { reportsDir });
      const { dir } = await writeRun(richResults(newRunId(), 13), { reportsDir });
      const shots = resolve('.tmp');
      mkdirSync(shots, { recursive: true });
      // The dashboard k6 would have exported next to the report.
      mkdirSync(join(dir, 'k6', 'smoke'), { recursive: true });
      writeFileSync(join(dir, 'k6', 'smoke', 'dashboard.html'), '<!DOCTYPE html><title>k6 dashboard stand-in</title><p>smoke</p>');
      const browser = await pw.launch({ executablePath: chromium!, args: ['--no-sandbox'] });
      try {
        const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
        const page = await context.newPage();
        const consoleErrors: string[] = [];
        const requests: string[] = [];
        page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
        page.on('pageerror', (e) => consoleErrors.push(e.message));
        page.on('dialog', (d) => {
          consoleErrors.push(`dialog opened: ${d.message()}`);
          void d.dismiss();
        });
        page.on('request', (r) => !r.url().startsWith('file:') && !r.url().startsWith('data:') && requests.push(r.url()));
        await page.goto(pathToFileURL(join(dir, 'report.html')).href);
        // A string expression: this project's TypeScript config has no DOM lib.
        const top = async (sel: string) => (await page.evaluate(`document.querySelector(${JSON.stringify(sel)}).getBoundingClientRect().top`)) as number;

        // First: the verdict, readable, stating depth, time scale and scope.
        await expect(page.locator('#verdict').isVisible()).resolves.toBe(true);
        expect(await top('#verdict')).toBeLessThan(120);
        expect(await page.locator('#verdict .big').textContent()).toBe('NOT CERTIFIED');
        const colours = (await page.evaluate(
          `(() => { const v = document.getElementById('verdict'); return { fg: getComputedStyle(v.querySelector('.big')).color, bg: getComputedStyle(v).backgroundColor }; })()`,
        )) as { fg: string; bg: string };
        expect(colours.fg).not.toBe(colours.bg);
        expect(colours.fg).toBe('rgb(255, 255, 255)');
        expect(await page.locator('#verdict dl.scope dt').allTextContents()).toEqual(['scope', 'depth', 'time', 'out of scope', 'target']);
        await page.screenshot({ path: join(shots, 'report-html-first-screen.png') });

        // Then the failures, above the matrix, each with its diff and reproduction command.
        const card = page.locator('article.failure').first();
        expect(await card.isVisible()).toBe(true);
        expect(await top('article.failure')).toBeLessThan(await top('#matrix'));
        expect(await card.locator('.diff pre .d-del').first().textContent()).toBe('-409 with error.type "conflict"');
        // Target-controlled markup reads as text, never as an element.
        expect(await card.locator('.diff pre .d-add').first().textContent()).toBe('+200 <img src=x onerror=alert(1)>');
        expect(await page.locator('img').count()).toBe(0);
        // The copy button appears (script ran) and copies the command exactly.
        const copy = card.locator('button.copy').first();
        expect(await copy.isVisible()).toBe(true);
        await copy.click();
        await expect.poll(() => copy.textContent()).toBe('copied');
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(failureCommand);

        // The filter box: a requirement id leaves its row alone; the failure of another requirement hides.
        const filter = page.locator('#filter');
        expect(await filter.isVisible()).toBe(true);
        await filter.fill('GATE-ERR-ENVELOPE');
        expect(await page.locator('tr[data-filterable]:visible').count()).toBe(1);
        expect(await page.locator('tr#GATE-ERR-ENVELOPE').isVisible()).toBe(true);
        expect(await card.isVisible()).toBe(false);
        expect(await page.locator('#filter-count').textContent()).toMatch(/^1 of \d+ match$/);
        await filter.fill('cancel completed');
        expect(await card.isVisible()).toBe(true);
        expect(await page.locator('tr#GATE-SESS-CANCEL-TERMINAL-409').isVisible()).toBe(true);
        expect(await page.locator('tr#GATE-ERR-ENVELOPE').isVisible()).toBe(false);
        await filter.fill('');
        expect(await page.locator('tr#GATE-ERR-ENVELOPE').count()).toBe(1);
        expect(await page.locator('#filter-count').textContent()).toBe('');

        // Observations grouped by topic with counts.
        expect(await page.locator('#observations ~ details.obs summary').allTextContents()).toEqual(
          expect.arrayContaining([expect.stringMatching(/gate-embed-foreign-status\s*gate · 2 observations · 2 distinct values/)]),
        );
        expect(await page.locator('svg').count()).toBeGreaterThanOrEqual(6);
        expect(await page.getByText('no data in this run').count()).toBe(0);
        // The script works: expand all opens every section.
        await page.getByRole('button', { name: 'expand all' }).click();
        expect(await page.locator('details.section:not([open])').count()).toBe(0);
        await page.screenshot({ path: join(shots, 'report-html.png'), fullPage: true });
        expect(consoleErrors).toEqual([]);
        expect(requests).toEqual([]);
        // The k6 dashboard link opens the file next to the report.
        await page.locator('a[href="k6/smoke/dashboard.html"]').click();
        await page.waitForURL(/\/k6\/smoke\/dashboard\.html$/);
        expect(await page.title()).toBe('k6 dashboard stand-in');
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
