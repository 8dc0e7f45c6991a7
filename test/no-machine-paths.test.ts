// A clone or an installed copy has only the repository: no file of README.md,
// src/ or test/ may name a folder of the machine it was written on (an
// absolute path into a home, a workspace, a temp folder) or reach beside the
// repository (a sibling folder of the checkout). The specs are bundled in
// src/model/text/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

// Built from words so this file does not match itself.
const TOP_FOLDERS = ['work', 'home', 'root', 'Users', 'tmp', 'usr', 'opt', 'var', 'etc', 'mnt', 'srv', 'private', 'Volumes', 'shared'];
const ABSOLUTE = new RegExp(`(?<![\\w.:/-])/(?:${TOP_FOLDERS.join('|')})/[\\w.-]`, 'g');
const BESIDE = new RegExp(['\\.\\.', 'shared'].join('/'), 'g');
const WINDOWS = /\b[A-Z]:\\[\w]/g;

const scanned = () => [join(ROOT, 'README.md'), ...files(join(ROOT, 'src')), ...files(join(ROOT, 'test'))].filter((p) => /\.(ts|js|md|json|html)$/.test(p));

describe('no machine paths', () => {
  it('README.md, src/ and test/ name no absolute folder of a machine and nothing beside the repository', () => {
    const hits: string[] = [];
    for (const file of scanned()) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        // A script's interpreter line (env found under usr/bin) names the same path on every machine.
        if (/^\s*'#!\/usr\/bin\/env \w+',?$/.test(line)) return;
        for (const re of [ABSOLUTE, BESIDE, WINDOWS]) for (const m of line.matchAll(re)) hits.push(`${relative(ROOT, file)}:${i + 1}: ${m[0]}`);
      });
    }
    expect(hits).toEqual([]);
  });

  it('the scan sees what it forbids', () => {
    const sample = ['see ', '/', 'work', '/sha', 'red/specs', ' and ', '..', '/sha', 'red', '/x and C:', '\\Users'].join('');
    expect(sample.match(ABSOLUTE)).toHaveLength(1);
    expect(sample.match(BESIDE)).toHaveLength(1);
    expect(sample.match(WINDOWS)).toHaveLength(1);
    // API paths and URLs are not folders of a machine.
    expect('GET /v1/gate_sessions, https://example.test/home/x'.match(ABSOLUTE)).toBeNull();
  });
});
