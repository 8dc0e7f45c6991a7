// Where a session may take a documented path the oracle would not — a linked buy past expires_at that expires the
// session rather than completing it (gate.session.lateCompletion), a list that notices an expiry (gate.session.
// expiryNoticed) — the target's own read shows the path it took, the model takes it, and the oracle is steered there
// with its own controls (its completion, its bootstrap), so the sequence goes on judged rather than parted.
import { holds } from '../../divergence.js';
import type { SessionTwin } from '../../model.js';
import type { Real } from '../../real.js';
import { bodyOf } from '../command.js';

const path = (id: string) => `/gate_sessions/${encodeURIComponent(id)}`;

/**
 * A linked buy that succeeds after expires_at: the target completes the session or expires it (gate.session.
 * lateCompletion), as its own read shows; the model takes the target's, and the oracle is steered there — its own
 * completion, or its expiry noticed (a bootstrap) — before the step reads both back.
 */
export async function completeLate(r: Real, s: SessionTwin): Promise<void> {
  const done = await r.trigger('target', 'gate', 'completeSession', { sessionId: s.id.target });
  if (!done || done.status >= 300) {
    s.parted = `the completeSession trigger answered ${done?.status ?? 'nothing'} on the target`;
    return;
  }
  const read = await r.one('target', () => r.gate('target').get(path(s.id.target)));
  const status = bodyOf(read).status;
  holds(r, read.status >= 300 || status === 'completed' || status === 'expired', 'GATE-SESS-COMPLETE', () => ({
    what: `${s.name} completed past expires_at: it reads completed, or expired`,
    target: status,
    oracle: 'completed or expired',
  }));
  if (read.status >= 300) return;
  r.observe('gate.session.lateCompletion', status === 'completed' ? 'completes' : 'expires');
  if (status === 'completed') await sandboxOracle(r, s, 'completeSession');
  else await expireOnOracle(r, s);
  if (!s.parted) s.state = status as SessionTwin['state'];
}

/** The oracle's session moved by its own control alone (steered to the target's documented path). */
async function sandboxOracle(r: Real, s: SessionTwin, name: 'completeSession'): Promise<void> {
  const ex = await r.trigger('oracle', 'gate', name, { sessionId: s.id.oracle });
  if (!ex || ex.status >= 300) s.parted = `the oracle's ${name} answered ${ex?.status ?? 'nothing'}`;
}

/**
 * The oracle notices the expiry of a session past expires_at as the target did (a read the target counts as the first
 * past it): its own bootstrap, which the oracle's profile always allows. Parted where it still reads otherwise.
 */
async function expireOnOracle(r: Real, s: SessionTwin): Promise<void> {
  const pk = r.sides.oracle.publishable;
  if (pk && s.clientSecret.oracle)
    await r.one('oracle', () =>
      pk.client.post('/embed/bootstrap', { clientSecret: s.clientSecret.oracle }, { auth: 'publishable', headers: { Origin: pk.origin } }),
    );
  const read = await r.one('oracle', () => r.gate('oracle').get(path(s.id.oracle)));
  if (bodyOf(read).status !== 'expired') s.parted = `the oracle, steered to the target's expiry, reads ${String(bodyOf(read).status)}`;
}

/**
 * A list is a read too: where the target notices there that an open session is past expires_at (gate.session.
 * expiryNoticed 'list-too') and lists it expired, the model takes that and the oracle is steered there (its own
 * bootstrap), so the session is judged expired from here on. Returns the oracle's item as it now stands.
 */
export async function noticedByList(r: Real, s: SessionTwin, t: Record<string, unknown>, o: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!(s.state === 'open' && s.expiresPast && t.status === 'expired' && o.status === 'open')) return o;
  r.observe('gate.session.expiryNoticed', 'list-too');
  await expireOnOracle(r, s);
  if (s.parted) return o;
  s.state = 'expired';
  s.movedBy = 'GATE-SESS-EXPIRE-ON-BOOTSTRAP';
  return { ...o, status: 'expired' };
}
