// Both services' endpoint tables, and lookups over them.
import { GATE_ENDPOINTS } from './gate.js';
import { POOLS_ENDPOINTS } from './pools.js';
import type { Endpoint, Service } from './types.js';

export { GATE_ENDPOINTS } from './gate.js';
export { POOLS_ENDPOINTS } from './pools.js';
export type * from './types.js';

export const ENDPOINTS: readonly Endpoint[] = [...GATE_ENDPOINTS, ...POOLS_ENDPOINTS];

export function endpointsOf(service: Service): readonly Endpoint[] {
  return service === 'gate' ? GATE_ENDPOINTS : POOLS_ENDPOINTS;
}

/** A path template as a pattern over concrete paths (relative to /v1, query stripped). */
export function templatePattern(template: string): RegExp {
  const re = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
  return new RegExp(`^${re}$`);
}

/**
 * The documented operation a request hits, or undefined. A literal segment wins
 * over a template one (GET /pools/funding is not GET /pools/{id}).
 */
export function findEndpoint(service: Service, method: string, path: string): Endpoint | undefined {
  const p = path.split('?')[0]!.replace(/\/+$/, '') || '/';
  const m = method.toUpperCase();
  const hits = endpointsOf(service).filter((e) => e.method === m && templatePattern(e.path).test(p));
  return hits.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0];
}
