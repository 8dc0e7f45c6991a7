// The exit-code tables of the README and docs/ci.md list every code the CLI can end with.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/exitCodes.js';

const root = resolve(import.meta.dirname, '..');
const codes = [...new Set(Object.values(EXIT))].sort((a, b) => a - b);

/** The codes in the first column of the table under `heading`. */
function tableCodes(file: string, heading: string): number[] {
  const text = readFileSync(resolve(root, file), 'utf8');
  const section = text.slice(text.indexOf(heading)).split(/\n## /)[0]!;
  return [...section.matchAll(/^\|\s*(\d+)\s*\|/gm)].map((m) => Number(m[1]));
}

describe('exit-code tables', () => {
  it('README lists every code of src/exitCodes.ts, in order, and no other', () => {
    expect(tableCodes('README.md', '## Exit codes')).toEqual(codes);
  });

  it('docs/ci.md lists every code of src/exitCodes.ts, in order, and no other', () => {
    expect(tableCodes('docs/ci.md', '## Exit codes and job results')).toEqual(codes);
  });
});
