// Per-sample facts the summary cannot carry (the request number of the first
// 429, each quote's observed TTL): one JSON record per console line, written
// to the run directory through k6's --console-output and read by rampart.
export function emit(record: Record<string, unknown>): void {
  console.log(`RAMPART ${JSON.stringify(record)}`);
}
