// The resume journal: finished checks survive an interruption; a check the
// stop cut short is not kept, so it runs again.
import { mkdtempSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendToJournal, readJournal, readRunRecord, writeRunRecord } from '../src/runner/journal.js';

describe('run journal', () => {
  it('keeps finished results by key, ignores not-run ones and a torn last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampart-journal-'));
    const base = { suite: 'conformance' as const, requirements: ['GATE-SESS-RETRIEVE'], durationMs: 1 };
    appendToJournal(dir, 'conformance:a::x', { ...base, name: 'x', status: 'passed' });
    appendToJournal(dir, 'conformance:a::y', { ...base, name: 'y', status: 'not_run', reason: 'interrupted' });
    appendToJournal(dir, 'conformance:a::z', { ...base, name: 'z', status: 'failed', failure: { message: 'boom' } });
    appendFileSync(join(dir, 'journal.jsonl'), '{"key":"conformance:a::w","result":{"na');
    const j = readJournal(dir);
    expect([...j.keys()]).toEqual(['conformance:a::x', 'conformance:a::z']);
    expect(j.get('conformance:a::z')?.failure?.message).toBe('boom');
  });

  it('records what the run was asked to do, and refuses a directory no run wrote', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampart-journal-'));
    writeRunRecord(dir, {
      runId: 'r1',
      command: 'conformance',
      kinds: ['conformance'],
      depth: 'quick',
      profile: 'p.json',
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(readRunRecord(dir)).toMatchObject({ runId: 'r1', profile: 'p.json' });
    expect(() => readRunRecord(mkdtempSync(join(tmpdir(), 'rampart-journal-')))).toThrow(/--resume takes a run directory/);
  });
});
