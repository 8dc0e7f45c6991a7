// Progress while running: on a terminal one live status line (running checks,
// the longest current wait and its time left, an ETA); in CI or a pipe quiet
// line-by-line output, one line per finished check.
import { redact } from '../secrets/index.js';
import type { CheckStatus } from '../report/results.js';

export interface Progress {
  start(total: number, label: string): void;
  checkStarted(name: string): void;
  checkFinished(name: string, status: CheckStatus, ms: number, detail?: string): void;
  /** Register a labelled wait; returns a function that ends it. */
  wait(label: string, ms: number): () => void;
  line(text: string): void;
  /** The plan's lower bound for the whole run (ms): the ETA never promises less. */
  expectAtLeast(ms: number): void;
  stop(): void;
}

const ICON: Record<CheckStatus, string> = { passed: '✓', failed: '✗', skipped: '-', unverified: '?', not_run: '·' };

export function createProgress(opts: { live?: boolean; quiet?: boolean; out?: NodeJS.WriteStream } = {}): Progress {
  const out = opts.out ?? process.stderr;
  const live = opts.live ?? (!!out.isTTY && !process.env.CI);
  const running = new Map<string, number>();
  const waits = new Map<number, { label: string; until: number }>();
  let waitSeq = 0;
  let total = 0;
  let done = 0;
  let startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let label = '';
  const runStartedAt = Date.now();
  let boundMs = 0;

  const clear = () => {
    if (live) out.write('\r\x1b[2K');
  };
  const status = () => {
    if (!live) return;
    const now = Date.now();
    const elapsed = (now - startedAt) / 1000;
    const byRate = done > 0 && done < total ? (elapsed / done) * (total - done) : undefined;
    const byBound = boundMs ? (boundMs - (now - runStartedAt)) / 1000 : undefined;
    const etaRaw = Math.max(byRate ?? 0, byBound ?? 0);
    const eta = byRate !== undefined || (byBound !== undefined && byBound > 0) ? Math.round(etaRaw) : undefined;
    let longest: { label: string; until: number } | undefined;
    for (const w of waits.values()) if (!longest || w.until > longest.until) longest = w;
    const wait = longest ? ` · waiting: ${longest.label} ${Math.max(0, Math.ceil((longest.until - now) / 1000))}s left` : '';
    let newest: string | undefined;
    let newestAt = 0;
    for (const [n, at] of running) if (at >= newestAt) [newest, newestAt] = [n, at];
    const current = newest ? ` · ${newest}${running.size > 1 ? ` (+${running.size - 1} more)` : ''}` : '';
    const line = redact(`${label} ${done}/${total}${current}${wait}${eta !== undefined ? ` · ETA ~${eta}s` : ''}`);
    out.write(`\r\x1b[2K${line.slice(0, (out.columns ?? 120) - 1)}`);
  };

  return {
    start(n, l) {
      // Kinds running at once share one display: totals add up, labels join.
      if (running.size === 0 && done >= total) {
        total = 0;
        done = 0;
        startedAt = Date.now();
        label = '';
      }
      total += n;
      label = label ? `${label} + ${l}` : l;
      if (live && !timer) {
        timer = setInterval(status, 250);
        timer.unref();
      }
      if (!opts.quiet) {
        clear();
        out.write(`${l}: ${n} checks\n`);
      }
    },
    checkStarted(name) {
      running.set(name, Date.now());
    },
    checkFinished(name, st, ms, detail) {
      running.delete(name);
      done++;
      if (opts.quiet && st !== 'failed') return;
      clear();
      out.write(redact(`  ${ICON[st]} ${name} (${(ms / 1000).toFixed(1)}s)${detail ? ` — ${detail}` : ''}\n`));
      status();
    },
    expectAtLeast(ms) {
      boundMs = ms;
    },
    wait(l, ms) {
      const id = ++waitSeq;
      waits.set(id, { label: l, until: Date.now() + ms });
      return () => waits.delete(id);
    },
    line(text) {
      clear();
      out.write(redact(text) + '\n');
      status();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      clear();
    },
  };
}
