// Hands out profile partners to checks. Work is spread over every partner the
// profile offers for a role: the least leased, least paced partner wins, so
// the per-key rate windows of a real sandbox are shared fairly.
import type { Pacer } from '../client/pacer.js';
import type { GatePartner, PoolsPartner } from '../profile/schema.js';

/** Every secret key of a partner: a partner may hold several (extraSecretKeys), each its own rate-limit client. */
const keysOf = (p: { secretKey: string; extraSecretKeys?: string[] }) => [p.secretKey, ...(p.extraSecretKeys ?? [])];

export class PartnerPool<P extends { name: string; secretKey: string; extraSecretKeys?: string[] }> {
  private readonly leases = new Map<string, number>();
  /** Partners held by one check alone (chaos checks that program the receiver or toxics for the partner). */
  private readonly exclusive = new Set<string>();
  /** Partners an exclusive lease is waiting for: no new shared lease, so the holders drain and it gets its turn. */
  private readonly draining = new Map<string, number>();

  constructor(
    readonly all: readonly P[],
    private readonly pacer?: Pacer,
  ) {}

  /** Lease the least busy partner matching `filter`, never one in `exclude`. */
  lease(
    filter: (p: P) => boolean,
    exclude: ReadonlySet<string> = new Set(),
    prefer?: (p: P) => boolean,
    opts: { exclusive?: boolean; rank?: (p: P) => number } = {},
  ): P | undefined {
    let best: P | undefined;
    let bestScore = Infinity;
    for (const p of this.all) {
      if (!filter(p) || exclude.has(p.name) || this.exclusive.has(p.name)) continue;
      if (opts.exclusive && (this.leases.get(p.name) ?? 0) > 0) continue;
      if (!opts.exclusive && (this.draining.get(p.name) ?? 0) > 0) continue;
      const score =
        (opts.rank ? opts.rank(p) * 1000 : 0) +
        (this.leases.get(p.name) ?? 0) * 10 +
        (this.pacer ? Math.min(...keysOf(p).map((k) => this.pacer!.pressure(k))) : 0) +
        (prefer && !prefer(p) ? 100 : 0);
      if (score < bestScore) {
        best = p;
        bestScore = score;
      }
    }
    if (best) {
      this.leases.set(best.name, (this.leases.get(best.name) ?? 0) + 1);
      if (opts.exclusive) this.exclusive.add(best.name);
    }
    return best;
  }

  /** An exclusive lease waits for these partners: hold new shared leases back until it is served (returns the undo). */
  intend(names: string[]): () => void {
    for (const n of names) this.draining.set(n, (this.draining.get(n) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const n of names) {
        const c = (this.draining.get(n) ?? 0) - 1;
        if (c <= 0) this.draining.delete(n);
        else this.draining.set(n, c);
      }
    };
  }

  /** Would an exclusive lease of a partner matching `filter` ever succeed (one exists at all)? */
  any(filter: (p: P) => boolean): boolean {
    return this.all.some(filter);
  }

  release(name: string): void {
    const n = (this.leases.get(name) ?? 0) - 1;
    this.exclusive.delete(name);
    if (n <= 0) this.leases.delete(name);
    else this.leases.set(name, n);
  }

  leased(name: string): number {
    return this.leases.get(name) ?? 0;
  }
}

export type GatePool = PartnerPool<GatePartner>;
export type PoolsPool = PartnerPool<PoolsPartner>;
