// Open points of the Gate spec's rate limits, the load side's: which requests a window counts, how a window moves,
// what a client's windows hold when a run starts, and the retry-delay header of a 429 (Limits; Errors). The Limits
// passages that are not the load side's (the rails' volume cap, the lists' page sizes, the session lifetime) are
// the areas' own (rails.ts, conventions.ts, sessions.ts).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Limits',
  entries: {
    'gate.limits.counted': {
      kind: 'reading',
      passage: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
      what: "which of a client's requests its windows count: those the windows let through (whatever they answer: 401, 404, 400), or every request it sends, a refused one (429) too",
      choices: ['admitted', 'every-request'],
      readBy: [
        'scenarios/rate-limits.ts',
        'scenarios/lib/windowJudge.ts',
        'scenarios/lib/routeProbes.ts',
        'src/load/minuteWindowStream.ts',
        'src/load/earlyRefusal.ts',
        'src/client/pacer.ts',
      ],
      note: '"10 requests per 10 seconds … Exceeding gives 429": a refused request is still a request the client sent, so both readings are the passage\'s',
    },
    'gate.limits.windows': {
      kind: 'reading',
      passage: 'Rate limits apply per client in three concurrent windows',
      what: 'how a window moves: sliding (a request leaves it one window after it was sent), or fixed buckets (every count starts again at the bucket edge)',
      choices: ['sliding', 'fixed'],
      readBy: ['scenarios/rate-limits.ts', 'scenarios/lib/windowJudge.ts', 'scenarios/lib/routeProbes.ts', 'src/load/minuteWindowStream.ts'],
    },
    'gate.limits.atStart': {
      kind: 'value',
      passage: 'Rate limits apply per client in three concurrent windows: 10 requests per 10 seconds, 60 per minute, 300 per hour.',
      what: "what a client's windows hold when a run starts: nothing, or its requests from before the run (a lived-in sandbox: its partners' own keys already sent requests in the last hour; none in the last minute)",
      choices: ['empty', 'lived-in'],
      readBy: [
        'src/load/minuteWindowStream.ts',
        'src/load/earlyRefusal.ts',
        'src/client/routeRefusal.ts',
        'scenarios/lib/routeProbes.ts',
        'scenarios/rate-limits.ts',
      ],
      note: "the spec counts every request of the client in its windows, not only a run's: the keys a profile reserves for load are the fresh ones (the rate-limit cases need their windows empty, as README says)",
    },
    'gate.limits.retryDelay': {
      kind: 'not-shown',
      passage: 'any retry-delay header on 429: not shown',
      what: 'which header a 429 carries to say when to retry: Retry-After (seconds), none at all, or another (RateLimit-Reset, seconds)',
      choices: ['retry-after', 'none', 'ratelimit-reset'],
      readBy: ['src/client/http.ts', 'src/load/minuteWindowStream.ts', 'scenarios/rate-limits.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/limits': typeof area.entries;
  }
}
