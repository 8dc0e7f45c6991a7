// CI summaries: the GITHUB_STEP_SUMMARY markdown and ::error annotations,
// escaped by GitHub's rules, redacted, pointing at the check's line.
import { judged, runOf } from './support/results.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, githubAnnotations, githubStepSummary, lineOfCheck, writeGithubStepSummary } from '../src/report/github.js';
import type { CheckResult, RunResults } from '../src/report/results.js';
import { scanText } from '../src/secrets/index.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-gh-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SK = ['sk', 'test', 'GithubPlanted000000000000000000042'].join('_');
const CHECK_FILE = 'conformance/gate/sessions.ts';
// A real check name of that file, with an apostrophe (written in double quotes there).
const CHECK_NAME = "another partner's session gives 404 on retrieve and cancel, and stays open";

function failing(extra: Partial<CheckResult> = {}): CheckResult {
  return {
    name: CHECK_NAME,
    suite: 'conformance',
    file: CHECK_FILE,
    requirements: ['GATE-SESS-CROSS-TENANT-404'],
    status: 'failed',
    durationMs: 30,
    failure: {
      message: `expected 404, got 200 | 100% wrong\r\nsecond line with ${SK}`,
      requirement: 'GATE-SESS-CROSS-TENANT-404',
      expected: '404 not_found',
      actual: '200 {"object":"gate_session","note":"a|b"}',
      requestId: 'req_abc123',
    },
    ...extra,
  };
}

function results(checks: CheckResult[]): RunResults {
  return judged(
    runOf({
      runId: '20260525T100000Z-gh01',
      checks: [{ name: 'retrieve a session', suite: 'conformance', requirements: ['GATE-SESS-RETRIEVE'], status: 'passed', durationMs: 5 }, ...checks],
    }),
  );
}

/** GitHub's runner decoding of workflow-command escapes, written independently of the encoder. */
function unescape(s: string): string {
  return s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

describe('githubAnnotations', () => {
  it('one ::error line per failed check: file, the line where the check is named, a title, the escaped message', () => {
    const lines = githubAnnotations(results([failing()]));
    expect(lines).toHaveLength(1);
    const expectedLine =
      readFileSync(join(root, CHECK_FILE), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes(CHECK_NAME)) + 1;
    expect(expectedLine).toBeGreaterThan(1);
    const m = /^::error file=([^,]*),line=(\d+),title=([^,:]*)::(.*)$/.exec(lines[0]!);
    expect(m, lines[0]).not.toBeNull();
    expect(m![1]).toBe(CHECK_FILE);
    expect(Number(m![2])).toBe(expectedLine);
    expect(unescape(m![3]!)).toBe(`rampart GATE-SESS-CROSS-TENANT-404: ${CHECK_NAME}`);
    // The message survives the round trip, minus the secret.
    expect(unescape(m![4]!)).toBe(
      'expected 404, got 200 | 100% wrong\r\nsecond line with sk_test_[redacted]\nexpected: 404 not_found\nactual: 200 {"object":"gate_session","note":"a|b"}\nrequest id: req_abc123',
    );
    expect(lines[0]).not.toMatch(/[\r\n]/);
    expect(scanText(lines[0]!)).toEqual([]);
  });

  it('escapes by GitHub rules: % CR LF in data; also : and , in properties', () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
    expect(escapeProperty('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext%3A a%2Cb');
    // % first, so an existing escape-looking sequence is not decoded later.
    expect(escapeData('%0A')).toBe('%250A');
    expect(unescape(escapeProperty('x%3Ay,z:%'))).toBe('x%3Ay,z:%');
  });

  it('absolute check files become repository-relative; an unknown file keeps no line; no file, no file property', () => {
    const abs = githubAnnotations(results([failing({ file: join(root, CHECK_FILE) })]))[0]!;
    expect(abs).toMatch(/^::error file=conformance\/gate\/sessions\.ts,line=\d+,/);
    const missing = githubAnnotations(results([failing({ file: 'conformance/gate/no-such-file.ts' })]))[0]!;
    expect(missing).toMatch(/^::error file=conformance\/gate\/no-such-file\.ts,title=/);
    const none = githubAnnotations(results([failing({ file: undefined })]))[0]!;
    expect(none).toMatch(/^::error title=rampart GATE-SESS-CROSS-TENANT-404%3A /);
  });

  it('lineOfCheck finds a single-quoted name with an escaped apostrophe too', () => {
    const file = join(tmp, 'suite.ts');
    writeFileSync(file, "export default [\n  { name: 'first' },\n  { name: 'the partner\\'s key' },\n];\n");
    expect(lineOfCheck(file, 'first')).toBe(2);
    expect(lineOfCheck(file, "the partner's key")).toBe(3);
    expect(lineOfCheck(file, 'absent')).toBeUndefined();
  });

  it('a passing run has no annotations', () => {
    expect(githubAnnotations(results([]))).toEqual([]);
  });
});

describe('githubStepSummary', () => {
  it('states the verdict, the counts and a failures table (requirement, check, expected, actual, request id) with cells escaped', () => {
    const md = githubStepSummary(results([failing()]));
    expect(md.split('\n')[0]).toBe('## ❌ rampart certify: NOT CERTIFIED');
    expect(md).toContain('| 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 |');
    expect(md).toContain('Checks: 1 passed, 1 failed, 0 skipped, 0 unverified, 0 not run.');
    expect(md).toContain('### Failures (1)');
    expect(md).toContain('| requirement | check | expected | actual | request id |');
    const row = md.split('\n').find((l) => l.startsWith('| `GATE-SESS-CROSS-TENANT-404`'))!;
    expect(row).toBe(`| \`GATE-SESS-CROSS-TENANT-404\` | ${CHECK_NAME} | 404 not_found | 200 {"object":"gate_session","note":"a\\|b"} | \`req_abc123\` |`);
    // Five cells: the escaped pipe did not split one.
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(5);
    expect(scanText(md)).toEqual([]);
  });

  it('a passing certify run says CERTIFIED and has no failures section', () => {
    const md = githubStepSummary(results([]));
    expect(md.split('\n')[0]).toBe('## ✅ rampart certify: CERTIFIED');
    expect(md).not.toContain('### Failures');
  });

  it('HTML and line breaks in a cell cannot break the table', () => {
    const md = githubStepSummary(results([failing({ failure: { message: 'm', expected: '<script>x</script>\nline2', actual: 'a `tick`' } })]));
    const row = md.split('\n').find((l) => l.startsWith('| `GATE'))!;
    expect(row).toContain('&lt;script&gt;x&lt;/script&gt;<br>line2');
    expect(row).toContain('a \\`tick\\`');
  });

  it('appends to the file named by GITHUB_STEP_SUMMARY, keeping what earlier steps wrote; does nothing without it', () => {
    const file = join(tmp, 'step-summary.md');
    writeFileSync(file, '# earlier step\n');
    expect(writeGithubStepSummary(results([failing()]), { GITHUB_STEP_SUMMARY: file })).toBe(file);
    expect(writeGithubStepSummary(results([]), { GITHUB_STEP_SUMMARY: file })).toBe(file);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# earlier step\n## ❌ rampart certify: NOT CERTIFIED')).toBe(true);
    expect(text).toContain('## ✅ rampart certify: CERTIFIED');
    expect(writeGithubStepSummary(results([]), {})).toBeUndefined();
  });
});
