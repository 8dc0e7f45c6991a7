// Gate webhook deliveries explored: the sequence points both sides' webhook_url at one address (each through its own
// configureWebhook trigger, before its first delivery), makes deliveries with POST /webhooks/test and reads them back through GET
// /webhooks/deliveries with its status filter and page sizes; replay of a delivery not dead-lettered is not shown
// (observed). No one answers the address, so a delivery goes through its attempts and retries on each side, each on its
// own clock: its status, attempts and times are judged on that side's own answers, never against the other side's.
import fc from 'fast-check';
import type { Exchange } from '../../../client/types.js';
import {
  DELIVERY_STATUSES,
  TERMINAL_DELIVERY_STATUSES,
  WEBHOOK_DELIVERY_RELATIONS,
  WEBHOOK_TEST_RELATIONS,
  WebhookDelivery,
} from '../../../model/schemas/gate/webhooks.js';
import { TemplateError } from '../../../needs/support/triggers.js';
import { holds, sameAsBefore, sameFields, sameOutcome } from '../../divergence.js';
import { live, type DeliveryTwin, type ExploreModel, type Side } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, FEW, bodyOf, objectIndex } from '../command.js';
import { walkList, type Listed } from '../lists.js';

const SIDES: Side[] = ['target', 'oracle'];
const LIST = '/webhooks/deliveries';
/** The largest page (limit 1–200): the sequence's deliveries are among the most recent, on the first page of a quiet partner. */
const PAGE = 200;
const FILTERS = ['all', ...DELIVERY_STATUSES] as const;
export type DeliveryFilter = (typeof FILTERS)[number];

/**
 * The address both sides send to: nobody answers it (each side's own loopback, a port nothing serves: the connection is
 * refused at once, no name to resolve), so every delivery fails fast and waits for its retries on the documented schedule.
 */
const webhookUrlOf = (r: Real) => `https://127.0.0.1:9/rampart-explore/${encodeURIComponent(r.context.tag)}`;

const ok = (ex?: Exchange) => !!ex && ex.status >= 200 && ex.status < 300;

/** Point both sides' webhook_url at the sequence's address, each through its own configureWebhook; false when a side refused. */
async function configureWebhook(m: ExploreModel, r: Real): Promise<boolean> {
  const url = webhookUrlOf(r);
  const answers: Partial<Record<Side, number | string>> = {};
  for (const side of SIDES) {
    try {
      const ex = await r.trigger(side, 'gate', 'configureWebhook', { webhookUrl: url });
      answers[side] = ok(ex) ? 'ok' : (ex?.status ?? 'no trigger');
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      answers[side] = e.message;
    }
  }
  // The sandbox's controls are the profile's, not the specs': a refusal there leaves the deliveries unexplored.
  if (answers.target === 'ok' && answers.oracle === 'ok') m.webhook.url = url;
  else {
    m.webhook.refused = `configureWebhook answered ${answers.target} on the target and ${answers.oracle} on the oracle`;
    r.observe('explore-configure-webhook', m.webhook.refused);
  }
  return !!m.webhook.url;
}

/** POST /webhooks/test: a new pending delivery of a new webhook.test event to the configured webhook_url, on both sides. */
export class SendTestEvent extends ExploreCommand {
  constructor(readonly then: DeliveryFilter | 'none') {
    super();
  }
  label(m: ExploreModel): string {
    const first = m.webhook.url ? '' : 'point the webhook_url at the exploration (configureWebhook), then ';
    return `${first}POST /webhooks/test${this.then === 'none' ? '' : `, then list the deliveries (${this.then})`}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && m.can.webhooks && !m.webhook.refused && live(m.deliveries).length < FEW;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    // The sequence's first delivery points both sides' webhook_url at its address first.
    if (!m.webhook.url && !(await configureWebhook(m, r))) return;
    const ex = await r.both((side) => r.gate(side).post('/webhooks/test', undefined));
    // Both sides were given a webhook_url by this sequence: a 400 (no webhook_url) on one of them is a divergence.
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-WHOPS-TEST-PENDING', 400: 'GATE-WHOPS-TEST-NO-URL-400' } });
    if (ex.oracle.status >= 300) return;
    const shape = WebhookDelivery.safeParse(ex.target.json);
    holds(r, shape.success, 'GATE-WHOPS-TEST-PENDING', () => ({
      what: `the test delivery: ${shape.error!.issues[0]?.path.join('.')} ${shape.error!.issues[0]?.message}`,
      target: ex.target.json,
      oracle: 'a WebhookDelivery',
    }));
    const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
    sameFields(r, m, WEBHOOK_TEST_RELATIONS, b, { what: 'the test delivery' });
    holds(r, !(b.target.target_url !== m.webhook.url), 'GATE-WHOPS-DELIVERY-TARGET-URL', () => ({
      what: 'the test delivery goes to the configured webhook_url',
      target: b.target.target_url,
      oracle: m.webhook.url,
    }));
    // Not idempotent: each call is a new event with its own event id.
    for (const side of SIDES) {
      const again = m.deliveries.find((d) => d.created[side].event_id === b[side].event_id);
      holds(r, !again, 'GATE-WHOPS-TEST-NEW-EVENT', () => ({
        what: `the test delivery's event id on the ${side} is ${again!.name}'s`,
        target: side === 'target' ? b.target.event_id : '(a new one)',
        oracle: side === 'oracle' ? b.oracle.event_id : '(a new one)',
      }));
    }
    m.deliveries.push({
      name: `delivery#${m.deliveries.length + 1}`,
      id: { target: String(b.target.id), oracle: String(b.oracle.id) },
      state: 'pending',
      movedBy: 'GATE-WHOPS-TEST-PENDING',
      madeAt: Date.now(),
      created: b,
      seen: { target: 'pending', oracle: 'pending' },
    });
    // The unfiltered read-back reads the page skip=1 first: a page cut from what an earlier read saw, not the list now, shows.
    if (this.then === 'all') await judgeSkip(r);
    if (this.then !== 'none') await listDeliveries(m, r, this.then);
  }
}

/**
 * The page skip=1, then the list without skip, on each side: where that list is whole (has_more false), the skipped
 * page is the same deliveries but one — as many as the list less one, each of them in it. Order is left out (by
 * creation or by last change, and a retry between the reads may move one); nothing of this partner's is made
 * between the two reads but by the target's own retries, which make no delivery.
 */
async function judgeSkip(r: Real): Promise<void> {
  for (const side of SIDES) {
    const skipped = await r.one(side, () => r.gate(side).get(LIST, { limit: String(PAGE), skip: '1' }));
    const whole = await r.one(side, () => r.gate(side).get(LIST, { limit: String(PAGE) }));
    if (!ok(skipped) || !ok(whole) || bodyOf(whole).has_more !== false) continue;
    const all = new Set(itemsOf(whole.json).map((d) => String(d.id)));
    const page = itemsOf(skipped.json).map((d) => String(d.id));
    const stray = page.filter((id) => !all.has(id));
    holds(r, page.length === Math.max(0, all.size - 1) && stray.length === 0, 'GATE-WHOPS-LIST-SKIP-OFFSET', () => ({
      what: `on the ${side}, the page skip=1 against the whole list read right after it (${all.size} deliveries)`,
      target:
        side === 'target'
          ? `${page.length} deliveries${stray.length ? `, ${stray.length} not in the list` : ''}`
          : `(${Math.max(0, all.size - 1)} of the list)`,
      oracle:
        side === 'oracle'
          ? `${page.length} deliveries${stray.length ? `, ${stray.length} not in the list` : ''}`
          : `(${Math.max(0, all.size - 1)} of the list)`,
    }));
  }
}

/** GET /webhooks/deliveries (a status filter, or none), walked by skip until the sequence's deliveries are seen. */
export class ListDeliveries extends ExploreCommand {
  constructor(readonly filter: DeliveryFilter) {
    super();
  }
  label(): string {
    return `list the deliveries${this.filter === 'all' ? '' : ` (status ${this.filter})`}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && live(m.deliveries).length > 0;
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return listDeliveries(m, r, this.filter);
  }
}

/** The walk: every item under a status filter has that status; the sequence's deliveries keep what made them, most recent first. */
export async function listDeliveries(m: ExploreModel, r: Real, filter: DeliveryFilter): Promise<void> {
  const mine = live(m.deliveries);
  const skipOf = new WeakMap<object, number>();
  const firstPage: Record<Side, number> = { target: 0, oracle: 0 };
  const query = (skip: number) => ({ limit: String(PAGE), ...(skip ? { skip: String(skip) } : {}), ...(filter === 'all' ? {} : { status: filter }) });
  const found = await walkList(r, {
    page: async (side, cursor) => {
      const skip = Number(cursor ?? 0);
      const ex = await r.gate(side).get(LIST, query(skip));
      const data = itemsOf(ex.json);
      if (ex.json && typeof ex.json === 'object') skipOf.set(ex.json, skip + data.length);
      if (!skip) firstPage[side] = data.length;
      return ex;
    },
    items: itemsOf,
    more: (j) => (j as { has_more?: unknown })?.has_more === true,
    cursor: (_item, j) => (j && typeof j === 'object' && skipOf.has(j) ? String(skipOf.get(j)) : undefined),
    wanted: (side) => new Set(mine.filter((d) => filter === 'all' || d.seen[side] === filter).map((d) => d.id[side])),
    requirement: filter === 'all' ? 'GATE-WHOPS-LIST-ENVELOPE' : 'GATE-WHOPS-LIST-STATUS-FILTER',
  });
  // The filter holds whatever the timing: an item shows its status at the read that listed it (judged on the
  // sequence's own deliveries, so the finding shows its cause).
  if (filter !== 'all')
    for (const d of mine) {
      const item = found.target.get(d.id.target)?.item;
      holds(r, !(item && item.status !== filter), 'GATE-WHOPS-LIST-STATUS-FILTER', () => ({
        what: `${d.name} listed under status=${filter}`,
        target: `listed, status ${String(item!.status)}`,
        oracle: `only ${filter} deliveries listed`,
      }));
    }
  for (const d of mine) judgeListed(r, m, d, found.target.get(d.id.target), found.oracle.get(d.id.oracle));
  judgeOrder(r, mine, found.target, firstPage.target);
}

const itemsOf = (j: unknown): Record<string, unknown>[] =>
  ((j as { data?: unknown })?.data && Array.isArray((j as { data: unknown[] }).data) ? (j as { data: unknown[] }).data : []).filter(
    (x): x is Record<string, unknown> => !!x && typeof x === 'object',
  );

/** One delivery of the sequence as each side listed it: what made it kept, a terminal one settled. */
function judgeListed(r: Real, m: ExploreModel, d: DeliveryTwin, t: Listed | undefined, o: Listed | undefined): void {
  const listed: Partial<Record<Side, Record<string, unknown>>> = { ...(t ? { target: t.item } : {}), ...(o ? { oracle: o.item } : {}) };
  for (const side of SIDES) {
    const item = listed[side];
    if (!item) continue;
    sameAsBefore(r, 'GATE-WHOPS-DELIVERY-SHAPE', `${d.name} as listed keeps what its creation answered`, side, d.created[side], item, [
      'id',
      'event_id',
      'event_type',
      'target_url',
    ]);
    d.seen[side] = typeof item.status === 'string' ? item.status : d.seen[side];
  }
  if (t) expectSettled(r, d, t.item);
  if (t && o) sameFields(r, m, WEBHOOK_DELIVERY_RELATIONS, { target: t.item, oracle: o.item }, { what: `${d.name} as listed` });
}

/** A terminal delivery (succeeded, dead_lettered) has no next attempt; a succeeded one has its delivered_at. */
function expectSettled(r: Real, d: DeliveryTwin, item: Record<string, unknown>): void {
  if (!(TERMINAL_DELIVERY_STATUSES as readonly unknown[]).includes(item.status)) return;
  holds(r, !(item.next_attempt_at !== null || (item.status === 'succeeded' && !item.delivered_at)), 'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT', () => ({
    what: `${d.name}, ${String(item.status)}`,
    target: { next_attempt_at: item.next_attempt_at, delivered_at: item.delivered_at },
    oracle: { next_attempt_at: null, delivered_at: item.status === 'succeeded' ? 'set' : 'any' },
  }));
}

const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);

/**
 * Most recent first among the sequence's deliveries on the target's first page (one read: a later page may have
 * moved meanwhile): by creation (the one made later first, created_at never increasing) or by last change
 * (updated_at never increasing). Either reading passes; which one held is observed.
 */
function judgeOrder(r: Real, mine: DeliveryTwin[], listed: Map<string, Listed>, firstPage: number): void {
  const seen = mine
    .map((d, made) => ({ d, made, at: listed.get(d.id.target) }))
    .filter((x): x is { d: DeliveryTwin; made: number; at: Listed } => !!x.at && x.at.at < firstPage)
    .sort((a, b) => a.at.at - b.at.at);
  if (seen.length < 2) return;
  const rises = (key: 'created_at' | 'updated_at') => seen.some((x, i) => i > 0 && time(x.at.item[key]) > time(seen[i - 1]!.at.item[key]));
  const byCreation = seen.every((x, i) => i === 0 || x.made < seen[i - 1]!.made) && !rises('created_at');
  const byChange = seen.every((x) => !Number.isNaN(time(x.at.item.updated_at))) && !rises('updated_at');
  holds(r, !(!byCreation && !byChange), 'GATE-WHOPS-LIST-ORDER', () => ({
    what: 'the order of the sequence’s deliveries (most recent first: by creation or by last change)',
    target: seen.map((x) => `${x.d.name} created ${String(x.at.item.created_at)} updated ${String(x.at.item.updated_at)}`),
    oracle: 'the later made first, or updated_at never increasing',
  }));
  r.observe('GATE-WHOPS-LIST-ORDER', byCreation && byChange ? 'both readings' : byCreation ? 'by creation' : 'by last change');
}

/** Replay a delivery: requeued when both sides last listed it dead-lettered; otherwise the answer is not shown (observed). */
export class ReplayDelivery extends ExploreCommand {
  constructor(readonly index: number) {
    super();
  }
  private twin(m: Readonly<ExploreModel>): DeliveryTwin {
    return this.choose(live(m.deliveries), this.index)!;
  }
  label(m: ExploreModel): string {
    return `replay ${this.twin(m).name}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && live(m.deliveries).length > 0;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const d = this.twin(m);
    const dead = d.seen.target === 'dead_lettered' && d.seen.oracle === 'dead_lettered';
    const ex = await r.both((side) => r.gate(side).post(`${LIST}/${encodeURIComponent(d.id[side])}/replay`, {}, { idempotencyKey: true }));
    if (dead) sameOutcome(r, ex, { requirement: { '2xx': 'GATE-WHOPS-REPLAY-DEAD-LETTERED' } });
    else r.observe('GATE-WHOPS-REPLAY-NOT-DEAD-LETTERED', `target ${ex.target.status}, oracle ${ex.oracle.status} (last listed ${d.seen.target ?? 'never'})`);
    // Requeued (or not): it moves on its own again.
    d.seen = { target: undefined, oracle: undefined };
  }
}

export function deliveryCommands(): fc.Arbitrary<ExploreCommand>[] {
  return [
    // A new delivery is pending or on its way: read back the lists it can be in now (or all of them).
    fc.constantFrom<DeliveryFilter | 'none'>('all', 'pending', 'in_flight').map((f) => new SendTestEvent(f)),
    fc.constantFrom(...FILTERS).map((f) => new ListDeliveries(f)),
    objectIndex().map((n) => new ReplayDelivery(n)),
  ];
}
