// The replay script of an exploration finding: the target's side of the shrunk sequence as curl lines, in order,
// the way the report writes a failure's reproduction (reproduce.ts), with what each step fills in for the next —
// the ids the target answered (captured from its answers into variables), a fresh Idempotency-Key per key the
// sequence used (reused where the sequence reused it), and a fresh tag for the emails and external ids it made
// unique (a lived-in target keeps the first run's). Secrets are the profile's ${VAR} names or placeholders.
import type { Exchange } from '../wire/exchange.js';
import { secretEnvRefs } from '../profile/load.js';
import { curlFor, type ReproduceContext } from './reproduce.js';
import type { ExchangeRecord } from './results.js';

export interface ReplayInput {
  steps: { n: number; label: string; target: (Exchange | ExchangeRecord)[] }[];
  /** The objects the sequence made, by name, with their target ids. */
  objects: { name: string; target: string }[];
  tag: string;
  /** The divergence, for the script's last comment. */
  what: string;
  step: number;
  target: unknown;
  oracle: unknown;
}

const varName = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
const requestOf = (x: Exchange | ExchangeRecord) =>
  'request' in x && x.request
    ? { headers: x.request.headers, json: x.json }
    : { headers: (x as ExchangeRecord).requestHeaders ?? {}, json: parseJson((x as ExchangeRecord).responseBody) };

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The top-level field of an answer that holds the id (id, quoteId, transactId …), if any. */
function fieldHolding(json: unknown, id: string): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  return Object.entries(json as Record<string, unknown>).find(([, v]) => v === id)?.[0];
}

const PRELUDE = [
  '# rampart explore: a finding replayed against the target (run it with bash)',
  'set -u',
  '# The body of a `curl -i` answer, and one top-level field of it.',
  "body() { printf '%s' \"$1\" | awk 'f { print } /^\\r?$/ { f = 1 }'; }",
  'field() { node -e \'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => process.stdout.write(String(JSON.parse(t)[process.argv[1]])))\' "$1"; }',
  'fresh() { node -e \'process.stdout.write(require("crypto").randomUUID())\'; }',
];

export function exploreReplay(input: ReplayInput, ctx: ReproduceContext = {}): { script: string; env: string[]; notes: string[] } {
  const keys = [
    ...new Set(input.steps.flatMap((s) => s.target.map((x) => Object.entries(requestOf(x).headers).find(([h]) => h.toLowerCase() === 'idempotency-key')?.[1]))),
  ].filter((k): k is string => typeof k === 'string' && k.length > 0);
  const ids = input.objects.filter((o) => o.target);
  // Longest first: an id inside a longer string is replaced by its own variable, never half of another.
  const filled = [
    ...ids.map((o) => ({ value: o.target, name: varName(o.name) })),
    ...keys.map((k, i) => ({ value: k, name: `KEY_${i + 1}` })),
    { value: input.tag, name: 'TAG' },
  ].sort((a, b) => b.value.length - a.value.length);
  const ours = new Set(filled.map((f) => f.name));
  const refs = [...filled, ...(ctx.secretRefs ?? secretEnvRefs())];
  const lines = [...PRELUDE, `TAG=$(fresh | cut -c1-8)`, ...keys.map((_, i) => `KEY_${i + 1}=$(fresh)`), ''];
  const env = new Set<string>();
  const notes = new Set<string>();
  const defined = new Set<string>();
  const total = input.steps.reduce((n, s) => n + s.target.length, 0);
  let k = 0;
  for (const step of input.steps) {
    for (const ex of step.target) {
      k++;
      const rep = curlFor(ex, { ...ctx, secretRefs: refs, bodyName: `explore-step${step.n}` });
      for (const e of rep.env) if (!ours.has(e)) env.add(e);
      for (const n of rep.notes) notes.add(n);
      const last = step.n === input.step && k === total;
      lines.push(`# step ${step.n}/${input.steps.length}: ${step.label}`);
      if (last) {
        lines.push(`# the divergence: ${input.what} — the target answered ${JSON.stringify(input.target)}, the oracle ${JSON.stringify(input.oracle)}`);
        lines.push(rep.command, '');
        continue;
      }
      lines.push(`R=$(${rep.command})`, `printf '%s\\n' "$R" | head -n 1`);
      // The ids this answer gave first: later steps name them.
      const json = requestOf(ex).json;
      for (const o of ids) {
        const name = varName(o.name);
        const field = defined.has(name) ? undefined : fieldHolding(json, o.target);
        if (!field) continue;
        defined.add(name);
        lines.push(`${name}=$(body "$R" | field ${field})`);
      }
      lines.push('');
    }
  }
  return { script: lines.join('\n'), env: [...env], notes: [...notes] };
}
