// The verdict through the real CLI: a run narrowed by its kind, --service or
// --grep never prints CERTIFIED (PASSED — partial run (…), recorded in
// results.json, junit.xml and report.html), and refuses --sign-key with one
// line and exit 2; a breached performance gate is NOT CERTIFIED, exit 1, in
// every output. Each run is narrowed to a check or a short smoke.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliIn, latestRun } from './support/cli.js';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6 } from '../src/load/k6.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-verdict-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = cliIn(tmp);
const latest = latestRun;
const banner = (html: string) => html.split('id="verdict"')[1]!.split('</section>')[0]!;
const verdictLine = (stdout: string) => stdout.split('\n').find((l) => /^(CERTIFIED|PASSED|NOT CERTIFIED|INCOMPLETE|INTERRUPTED)\b/.test(l));

describe('a partial run is never CERTIFIED and never signed', () => {
  for (const args of [
    ['conformance'],
    ['conformance', '--service', 'gate'],
    ['conformance', '--grep', 'GATE-CUST'],
    ['chaos', '--service', 'pools'],
    ['load', '--scenario', 'smoke'],
  ]) {
    it(`${args.join(' ')} --sign-key: one line, exit 2, before any traffic`, async () => {
      const r = await cli([...args, '--sign-key', join(tmp, 'no-such.key')]);
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l.trim());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^rampart: --sign-key is refused: a certificate is signed only for a whole run \(rampart certify, nothing narrowed\), and this is a partial run \(.+\)$/,
      );
      expect(r.stdout).toBe('');
    });
  }

  it('conformance --service gate --grep: PASSED — partial run (…), exit 0, recorded in results.json, junit.xml and report.html', async () => {
    const r = await cli(['conformance', '--service', 'gate', '--grep', 'GATE-CUST-GET-404']);
    expect(r.code, r.stderr).toBe(0);
    expect(verdictLine(r.stdout)).toMatch(
      /^PASSED( \(time-scaled[^)]*\))? — partial run \(conformance only, service gate, grep "GATE-CUST-GET-404"\): all 1 requirements in scope passed$/,
    );
    expect(r.stdout).not.toMatch(/^CERTIFIED/m);
    const { results, junit, html } = latest(r.reports);
    expect(results.scope).toEqual({
      kinds: ['conformance'],
      depth: 'quick',
      service: 'gate',
      grep: 'GATE-CUST-GET-404',
      whole: false,
      partial: 'conformance only, service gate, grep "GATE-CUST-GET-404"',
    });
    expect(results.summary.verdict).toBe('PASSED');
    expect(junit).toContain('<property name="verdict" value="PASSED"/>');
    expect(junit).toContain('<property name="scope" value="partial run (conformance only, service gate, grep &quot;GATE-CUST-GET-404&quot;)"/>');
    expect(banner(html)).toContain('<div class="big">PASSED</div>');
    expect(banner(html)).toContain('a partial run (conformance only, service gate, grep &quot;GATE-CUST-GET-404&quot;)');
  });

  it('--grep selecting one of two checks of a requirement: that requirement is partial, never passed', async () => {
    const r = await cli(['conformance', '--grep', 'a request without credentials gives 401']);
    expect(r.code, r.stderr).toBe(0);
    const { results } = latest(r.reports);
    const req = results.requirements.find((q) => q.id === 'GATE-ERR-401-UNAUTHORIZED');
    expect(req).toMatchObject({ status: 'partial' });
    expect(req!.missingParts?.[0]).toMatch(/ — not selected by this run \(conformance only, grep "a request without credentials gives 401"\)$/);
    expect(results.summary.verdict).toBe('INCOMPLETE');
    expect(verdictLine(r.stdout)).toMatch(/^INCOMPLETE/);
    expect(r.stdout).toContain('scope: partial run (conformance only, grep "a request without credentials gives 401")');
  });
});

describe.skipIf('missing' in findK6())('a breached performance gate', () => {
  it('load --scenario smoke --gates <p95 1 ms>: NOT CERTIFIED, exit 1, in the terminal, results.json, junit.xml and report.html', async () => {
    const gates = JSON.parse(readFileSync(join(root, 'fixtures/gates.json'), 'utf8')) as { p95Ms: Record<string, number>; smokeDurationSeconds: number };
    const tight = join(tmp, 'gates-p95-1ms.json');
    writeFileSync(tight, JSON.stringify({ ...gates, p95Ms: Object.fromEntries(Object.keys(gates.p95Ms).map((k) => [k, 1])), smokeDurationSeconds: 25 }));
    const r = await cli(['load', '--scenario', 'smoke', '--gates', tight], 180_000);
    expect(r.code, r.stderr).toBe(1);
    expect(verdictLine(r.stdout)).toMatch(
      /^NOT CERTIFIED( \(time-scaled[^)]*\))? — \d+ performance gate checks? failed \(smoke: gate http_req_duration\{group:/,
    );
    const { results, junit, html } = latest(r.reports);
    expect(results.summary.verdict).toBe('NOT CERTIFIED');
    expect(results.summary.failedWithoutRequirement?.length).toBeGreaterThan(0);
    expect(results.checks.filter((c) => c.status === 'failed').every((c) => c.requirements.length === 0 && c.failure?.kind === 'assertion')).toBe(true);
    expect(junit).toContain('<property name="verdict" value="NOT CERTIFIED"/>');
    expect(junit).toMatch(/<failure message="performance gate breached: http_req_duration\{group:/);
    expect(banner(html)).toContain('<div class="big">NOT CERTIFIED</div>');
  }, 200_000);
});
