// A Gate route proven to refuse every paced request (src/client/routeRefusal.ts) fails the Limits rule of its
// route's window: the check whose request met it cannot judge its own rules (not run, naming the refusal), and the
// run gets one failed check per route naming the rate requirement, with the refusals and their witnesses.
import type { RouteRefusesEveryRequest } from '../client/routeRefusal.js';
import type { RequirementId } from '../model/catalogue/define.js';
import type { RouteGroup } from '../model/limits.js';
import { toExchangeRecord } from '../report/exchangeRecord.js';
import type { CheckResult } from '../report/results.js';

/** The route whose window each group's count is measured on (scenarios/rate-limits.ts): its own requirement. */
const MEASURED: Record<RouteGroup, { route: string; id: RequirementId }> = {
  write10: { route: 'POST /gate_sessions', id: 'GATE-RATE-ROUTE-WRITE10' },
  write30: { route: 'PATCH /branding', id: 'GATE-RATE-ROUTE-WRITE30' },
  read60: { route: 'GET /branding', id: 'GATE-RATE-ROUTE-READ60' },
  default: { route: 'GET /dashboard/webhook-settings', id: 'GATE-RATE-FIRST-WINDOW' },
};

/** Every other route of a row: the row's route requirement ("every other route of the row is in that window"). */
const ROW: Record<RouteGroup, RequirementId> = {
  write10: 'GATE-RATE-ROUTES-WRITE10',
  write30: 'GATE-RATE-ROUTES-WRITE30',
  read60: 'GATE-RATE-ROUTES-READ60',
  default: 'GATE-RATE-ROUTES-DEFAULT',
};

/** The default row's routes besides the measured one; any route no row names keeps the default windows (FIRST-WINDOW). */
const DEFAULT_ROW = [/^PATCH \/dashboard\/webhook-settings$/, /^GET \/dashboard\/webhook-deliveries$/];

/** The Limits requirement a route refusing every request breaks: its row's count ("L quick requests pass"). */
export function rateRequirementOfRoute(method: string, path: string, group: RouteGroup): RequirementId {
  const route = `${method.toUpperCase()} ${path.replace(/\/+$/, '')}`;
  if (route === MEASURED[group].route) return MEASURED[group].id;
  if (group === 'default') return DEFAULT_ROW.some((r) => r.test(route)) ? ROW.default : MEASURED.default.id;
  return ROW[group];
}

/** One route's refusals, kept once per route however many checks met them. */
export class RouteRefusals {
  private readonly byRoute = new Map<string, RouteRefusesEveryRequest>();

  add(e: RouteRefusesEveryRequest): void {
    const k = `${e.method} ${e.path}`;
    if (!this.byRoute.has(k)) this.byRoute.set(k, e);
  }

  /** A failed check per route, naming the rate requirement its refusals break. */
  checks(suite: CheckResult['suite']): CheckResult[] {
    return [...this.byRoute.values()].map((e) => {
      const id = rateRequirementOfRoute(e.method, e.path, e.group);
      const witnessed = e.refusals.flatMap((r) => (r.witness ? [r.exchange, r.witness] : [r.exchange]));
      return {
        name: `rate limits on paced traffic: ${e.method} ${e.path} refuses every request though rampart kept its key inside every documented window`,
        suite,
        file: 'src/client/routeRefusal.ts',
        requirements: [id],
        status: 'failed',
        durationMs: Math.round(e.refusals.at(-1)!.at - e.refusals[0]!.at),
        failure: {
          message: e.message,
          kind: 'assertion',
          requirement: id,
          expected: `requests of the ${e.group} row inside its documented windows are accepted (a 429 only once a window holds its limit)`,
          actual: e.refusals.map((r) => `429${r.witness ? `, witness ${r.witness.status}` : ''}`).join('; '),
          requestId: e.refusals.at(-1)!.exchange.requestId,
          exchanges: witnessed.slice(-6).map(toExchangeRecord),
        },
      };
    });
  }
}
