// The walls between the houses, checked on every import (static and dynamic):
// the spec model imports nothing above it; client/ never imports report/ (and
// so no cycle); the harness reaches the embedded target only through the CLI's
// launcher; the embedded target never imports suites or the harness; no suite
// imports another suite's file (shared helpers live in support/); load and
// chaos never import each other (the pinned tools live in src/tools, the
// package's own files are found through src/packageRoot.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(join(ROOT, dir))) {
    const p = join(dir, f);
    if (statSync(join(ROOT, p)).isDirectory()) out.push(...files(p));
    else if (/\.ts$/.test(f)) out.push(p);
  }
  return out;
}

/** Every relative import of a file, resolved to a repository path. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm)].map((m) => m[1]!);
  return specs.map((s) => normalize(join(dirname(file), s)).replace(/\.js$/, '.ts'));
}

const all = ['src', 'support', 'conformance', 'chaos'].flatMap(files);
const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);
const violations = (from: (f: string) => boolean, to: (i: string) => boolean) =>
  all.filter(from).flatMap((f) =>
    importsOf(f)
      .filter(to)
      .map((i) => `${f} → ${relative('.', i)}`),
  );

describe('import walls', () => {
  it('the spec model (src/model) imports nothing above it', () => {
    expect(
      violations(
        (f) => under(f, 'src/model'),
        (i) => !under(i, 'src/model'),
      ),
    ).toEqual([]);
  });

  it('src/wire (what the wire tells: plain data client, runner and report share) imports nothing above it', () => {
    expect(
      violations(
        (f) => under(f, 'src/wire'),
        (i) => !under(i, 'src/wire'),
      ),
    ).toEqual([]);
  });
  it('the client and the secrets module never import the report (no client ↔ report cycle)', () => {
    expect(
      violations(
        (f) => under(f, 'src/client') || under(f, 'src/secrets'),
        (i) => under(i, 'src/report') || under(i, 'src/runner') || under(i, 'src/cli'),
      ),
    ).toEqual([]);
  });

  it('exit codes and the secrets module are ground floor: no load or report code imports the CLI', () => {
    expect(
      violations(
        (f) => under(f, 'src/load') || under(f, 'src/report') || under(f, 'src/runner') || under(f, 'src/needs'),
        (i) => under(i, 'src/cli'),
      ),
    ).toEqual([]);
  });

  it('the harness reaches the embedded target only through the CLI launcher (target.ts, serve)', () => {
    const allowed = new Set(['src/cli/target.ts', 'src/cli/main.ts']);
    expect(
      violations(
        (f) => !under(f, 'src/reference') && !allowed.has(f),
        (i) => under(i, 'src/reference'),
      ),
    ).toEqual([]);
  });

  it('the embedded target never imports suites, support, the runner, needs or reports', () => {
    const harness = ['conformance', 'chaos', 'support', 'src/runner', 'src/needs', 'src/report', 'src/cli', 'src/suites', 'src/load', 'src/chaos'];
    expect(
      violations(
        (f) => under(f, 'src/reference'),
        (i) => harness.some((h) => under(i, h)),
      ),
    ).toEqual([]);
  });

  it('load and chaos are siblings: neither imports the other (where the pinned tools live is src/tools)', () => {
    expect(
      violations(
        (f) => under(f, 'src/chaos'),
        (i) => under(i, 'src/load'),
      ),
    ).toEqual([]);
    expect(
      violations(
        (f) => under(f, 'src/load'),
        (i) => under(i, 'src/chaos'),
      ),
    ).toEqual([]);
  });

  it('the tools module and the package root are ground floor: they import nothing of rampart but the package root', () => {
    expect(
      violations(
        (f) => under(f, 'src/tools') || f === 'src/packageRoot.ts',
        (i) => i !== 'src/packageRoot.ts' && !under(i, 'src/tools'),
      ),
    ).toEqual([]);
  });

  it('no check file imports another check file; shared helpers live in support/', () => {
    const isSuite = (p: string) => (under(p, 'conformance') || under(p, 'chaos')) && !p.includes('/support/');
    expect(violations(isSuite, isSuite)).toEqual([]);
    expect(violations((f) => under(f, 'support'), isSuite)).toEqual([]);
  });
});
