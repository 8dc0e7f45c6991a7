// Run in a child process by test/client-bounded.test.ts: one GET through the
// client against the URL in argv, then the memory it took, as one JSON line.
import { createApiClient } from '../../src/client/http.js';

const [url, maxBodyBytes] = process.argv.slice(2);
const u = new URL(url!);
const client = createApiClient({
  service: 'gate',
  baseUrl: `${u.origin}/v1`,
  label: 'memory',
  ...(maxBodyBytes ? { maxBodyBytes: Number(maxBodyBytes) } : {}),
});
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const t0 = Date.now();
let outcome: { kind?: string; message?: string; status?: number };
try {
  const ex = await client.get(u.pathname.replace(/^\/v1/, ''), undefined, { retry: false });
  outcome = { status: ex.status };
} catch (e) {
  outcome = { kind: (e as { kind?: string }).kind, message: (e as Error).message };
}
const peakRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(JSON.stringify({ ...outcome, rssBefore, peakRss, growth: peakRss - rssBefore, ms: Date.now() - t0 }) + '\n');
process.exit(0);
