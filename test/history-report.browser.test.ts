// The report's History section in headless Chromium (Debian's, through playwright-core; skipped visibly where there
// is none): six nights of one target and scope written as every run is, the rule a fault breaks every other night,
// latency rising on the last. The section reads first as this run's failures told apart, then the intermittent rule
// with its strip, a strip per requirement, and p95 per route group over the runs; the banner says the same; an
// earlier run's link opens that run's report. No console error, no request leaves the page. Screenshots in .tmp/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeRun } from '../src/report/writeRun.js';
import { nightAt, nightRun } from './support/nights.js';

const onPath = (name: string) =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((p) => existsSync(p));
const chromium = [process.env.CHROMIUM_PATH, onPath('chromium'), onPath('chromium-browser')].find((p): p is string => !!p && existsSync(p));
const tmp = mkdtempSync(join(tmpdir(), 'rampart-history-html-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TRON = 'POOLS-QUOTE-NETWORK-DEFAULT-TRON';
const latency = (read60: number) => ({
  read60: { p50: read60 / 2, p90: read60 * 0.9, p95: read60, p99: read60 * 1.5, max: read60 * 2, samples: 240 },
  write10: { p50: 3, p90: 5, p95: 6, p99: 9, max: 12, samples: 90 },
});

describe('the History section of report.html', () => {
  it.skipIf(!chromium)(
    chromium
      ? `reviewed in headless Chromium (${chromium})`
      : "reviewed in headless Chromium (skipped: no chromium binary; install Debian's chromium or set CHROMIUM_PATH)",
    async () => {
      const reportsDir = join(tmp, 'reports');
      const dirs: string[] = [];
      for (let i = 1; i <= 6; i++) {
        const statuses = { [TRON]: i % 2 === 0 ? 'failed' : 'passed', ...(i === 6 ? { 'POOLS-CAP-TIER': 'failed' as const } : {}) } as const;
        const { dir } = await writeRun(nightRun({ ...nightAt(20 + i), statuses, latency: latency(i === 6 ? 260 : 8 + i) }), { reportsDir });
        dirs.push(dir);
      }
      const { chromium: pw } = await import('playwright-core');
      const shots = resolve('.tmp');
      mkdirSync(shots, { recursive: true });
      const browser = await pw.launch({ executablePath: chromium!, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
      try {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        const errors: string[] = [];
        const requests: string[] = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('request', (r) => !r.url().startsWith('file:') && !r.url().startsWith('data:') && requests.push(r.url()));
        await page.goto(pathToFileURL(join(dirs[5]!, 'report.html')).href);

        // The banner tells the night's failures apart.
        expect(await page.locator('#verdict .hist').textContent()).toBe(
          `Failures against the last runs: 1 new: POOLS-CAP-TIER; 1 intermittent: ${TRON}; 0 still failing — against 5 earlier runs of this target and scope (nothing was retried or hidden)`,
        );
        await page.locator('nav a[href="#history"]').click();
        const section = page.locator('h2#history');
        expect(await section.isVisible()).toBe(true);
        expect(await page.locator('nav a[href="#history"]').textContent()).toBe('history (6 runs)');
        // This run's failures, each with its tag.
        const tags = await page.locator('h2#history ~ ul.hist-fail').first().locator('li .tag').allTextContents();
        expect(tags.sort()).toEqual(['intermittent', 'new']);
        // The intermittent rule, with its strip: red where it failed, green where it passed, this run outlined.
        const flagged = page.locator('h2#history ~ ul.hist-fail').nth(1).locator('li');
        expect(await flagged.count()).toBe(1);
        expect(await flagged.locator('code').textContent()).toBe(TRON);
        const cells = flagged.locator('.strip i');
        expect(await cells.count()).toBe(6);
        const colours = (await cells.evaluateAll((els) =>
          els.map((e) => (globalThis as unknown as { getComputedStyle(el: unknown): { backgroundColor: string } }).getComputedStyle(e).backgroundColor),
        )) as string[];
        expect(colours).toEqual(['rgb(26, 127, 55)', 'rgb(207, 34, 46)', 'rgb(26, 127, 55)', 'rgb(207, 34, 46)', 'rgb(26, 127, 55)', 'rgb(207, 34, 46)']);
        expect(await cells.nth(5).getAttribute('class')).toContain('now');
        // A strip per requirement: the moving ones open, those that passed every run in a closed section.
        expect(await page.locator('table.strips').first().locator('tr').count()).toBe(2);
        expect(await page.locator('h2#history ~ details.section summary').first().textContent()).toBe('2 requirements passed in every run');
        // p95 over the runs: one line per route group, the rise on the last run drawn.
        const trend = page.locator('svg[aria-label="p95 per scenario and route group over the runs"]');
        expect(await trend.locator('polyline').count()).toBe(2);
        expect(await trend.locator('circle title').first().textContent()).toMatch(/: read60 p95 9(\.0)? ms \(240 samples\)$/);
        await section.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(shots, 'report-history.png') });
        await page.locator('h2#history').evaluate((h) => (h as unknown as { scrollIntoView(): void }).scrollIntoView());
        await page.screenshot({ path: join(shots, 'report-history-section.png'), fullPage: false });
        expect(errors).toEqual([]);
        expect(requests).toEqual([]);
        // An earlier run's link opens that run's report.
        await page.locator('.hist-runs a').first().click();
        await page.waitForURL(new RegExp(`/${nightAt(21).runId}/report\\.html$`));
        expect(await page.locator('#verdict .big').textContent()).toBe('PASSED');
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
