// Gate customers explored: create (its body and answer are not shown: the id is what the answer offers, else the
// list's) and its replay, duplicates of a live or deleted customer's email and external_id, retrieve, PATCH (set, clear, replace
// metadata), soft delete and its repeat, and the list that leaves deleted customers out.
import { randomInt, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { RequirementId } from '../../../model/catalogue/index.js';
import { GATE_CUSTOMER_RELATIONS, GATE_DELETED_CUSTOMER_RELATIONS } from '../../../model/schemas/gate/customers.js';
import { fillDeep } from '../../../needs/support/triggers.js';
import { holds, sameAsBefore, sameFields, sameOutcome } from '../../divergence.js';
import { live, type CustomerTwin, type ExploreModel, type Side } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, FEW, bodyOf, objectIndex } from '../command.js';
import { listedFrom, unlisted, walkList } from '../lists.js';

const path = (id: string) => `/customers/${encodeURIComponent(id)}`;
const SIDES: Side[] = ['target', 'oracle'];

/**
 * What a step that moves a customer reads back: the customer after it, with the list, or the customer before and after.
 * Every change is read back: a cache, a second copy or an index one path forgets shows in the read that follows it.
 */
export type CustomerReadBack = 'none' | 'get' | 'list' | 'around';
const THEN: Record<CustomerReadBack, string> = {
  none: '',
  get: ', then retrieve it',
  list: ', then retrieve it and list customers',
  around: ', retrieving it before and after',
};

async function readBefore(m: ExploreModel, r: Real, c: CustomerTwin, then: CustomerReadBack): Promise<void> {
  if (then === 'around') await retrieve(m, r, c);
}

async function readBack(m: ExploreModel, r: Real, c: CustomerTwin, then: CustomerReadBack): Promise<void> {
  if (then === 'none') return;
  await retrieve(m, r, c);
  if (then === 'list') await listCustomers(m, r);
}

/**
 * A creation body with a unique email, external_id and phone, over the profile's gate.customerTemplate. The phone is
 * unique too, across sequences and explorations: a target may refuse a repeated one (gate.customer.phoneRepeat).
 */
function newCustomer(r: Real, n: number): Record<string, unknown> {
  const tag = `${r.context.tag}-${n}-${randomUUID().slice(0, 6)}`;
  const own = { external_id: `explore-${tag}`, email: `explore+${tag}@example.test`, phone: `+4915${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}` };
  const extra = r.context.customerTemplate
    ? (fillDeep(r.context.customerTemplate, { tag, email: own.email, externalId: own.external_id, phone: own.phone }) as Record<string, unknown>)
    : {};
  return { first_name: 'Ada', last_name: 'Lovelace', country_code: 'DE', metadata: { rampart: 'explore', tag }, ...extra, ...own };
}

export class CreateCustomer extends ExploreCommand {
  constructor(readonly then: CustomerReadBack = 'none') {
    super();
  }
  label(): string {
    return `create a customer${THEN[this.then]}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && live(m.customers).length < FEW;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const body = newCustomer(r, m.serial);
    const key = randomUUID();
    const ex = await r.both((side) => r.gate(side).post('/customers', body, { idempotencyKey: key }));
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-CUST-CREATE', 409: 'GATE-CUST-DUP-EMAIL-409' } });
    if (ex.oracle.status >= 300) return;
    const ids: Partial<Record<Side, string>> = {};
    for (const side of SIDES) {
      const id = bodyOf(ex[side]).id;
      // The creation answer is not shown: an id it does not offer is looked up in the list by the email.
      ids[side] = typeof id === 'string' && id ? id : await findByEmail(r, side, String(body.email));
    }
    const name = `customer#${m.customers.length + 1}`;
    const twin: CustomerTwin = {
      name,
      id: { target: ids.target ?? '', oracle: ids.oracle ?? '' },
      state: 'active',
      movedBy: 'GATE-CUST-CREATE',
      madeAt: Date.now(),
      idempotencyKey: key,
      body,
      email: String(body.email),
      externalId: String(body.external_id),
      rules: {},
    };
    if (!ids.target) twin.parted = 'the creation answer offers no id and the list did not show the customer within the pages walked';
    m.customers.push(twin);
    if (!twin.parted) listedFrom(r, 'customers', twin.id);
    if (!twin.parted) await readBack(m, r, twin, this.then);
  }
}

async function findByEmail(r: Real, side: Side, email: string): Promise<string | undefined> {
  let after: string | undefined;
  for (let page = 0; page < 3; page++) {
    const ex = await r.one(side, () => r.gate(side).get('/customers', after ? { starting_after: after } : undefined));
    const data = (bodyOf(ex).data as Record<string, unknown>[] | undefined) ?? [];
    const hit = data.find((c) => c.email === email);
    if (hit) return String(hit.id);
    if (bodyOf(ex).has_more !== true || !data.length) return undefined;
    after = String(data.at(-1)!.id);
  }
  return undefined;
}

abstract class OnCustomer extends ExploreCommand {
  constructor(
    readonly index: number,
    /** What the step reads back after it (steps that only read never do). */
    readonly then: CustomerReadBack = 'none',
  ) {
    super();
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && live(m.customers).length > 0;
  }
  protected twin(m: Readonly<ExploreModel>): CustomerTwin {
    return this.choose(live(m.customers), this.index)!;
  }
  label(m: ExploreModel): string {
    return `${this.verb} ${this.twin(m).name}${this.twin(m).state === 'deleted' ? ' (deleted)' : ''}${THEN[this.then]}`;
  }
  protected abstract readonly verb: string;
}

/** A second customer with a live or deleted customer's email or external_id: 409, a soft-deleted one's stays reserved. */
export class DuplicateCustomer extends OnCustomer {
  constructor(
    index: number,
    readonly field: 'email' | 'external_id',
  ) {
    super(index);
  }
  protected get verb(): string {
    return `create a customer with the ${this.field} of`;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const c = this.twin(m);
    const body = { ...newCustomer(r, m.serial), [this.field]: this.field === 'email' ? c.email : c.externalId };
    const ex = await r.both((side) => r.gate(side).post('/customers', body, { idempotencyKey: true }));
    const rule: RequirementId =
      c.state === 'deleted' ? 'GATE-CUST-DUP-SOFT-DELETED-409' : this.field === 'email' ? 'GATE-CUST-DUP-EMAIL-409' : 'GATE-CUST-DUP-EXTERNAL-ID-409';
    sameOutcome(r, ex, { requirement: { 409: rule, '2xx': rule } });
  }
}

/**
 * The creation sent again with its Idempotency-Key and body: the original response (no second customer), then the
 * customer retrieved — as its PATCHes and its deletion left it, never as the replayed answer shows it.
 */
export class ReplayCreateCustomer extends OnCustomer {
  constructor(index: number) {
    super(index, 'get');
  }
  protected readonly verb = 'replay the creation of';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const c = this.twin(m);
    const ex = await r.both((side) => r.gate(side).post('/customers', c.body, { idempotencyKey: c.idempotencyKey }));
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-CUST-IDEMPOTENT-REPLAY', 409: 'GATE-CUST-IDEMPOTENT-REPLAY' } });
    await readBack(m, r, c, this.then);
  }
}

/** Retrieve: the customer as its PATCHes left it; a deleted one reads 404. */
async function retrieve(m: ExploreModel, r: Real, c: CustomerTwin): Promise<void> {
  const ex = await r.both((side) => r.gate(side).get(path(c.id[side])));
  sameOutcome(r, ex, {
    requirement: {
      '2xx': c.state === 'deleted' ? 'GATE-CUST-DELETED-404' : 'GATE-CUST-GET',
      404: c.state === 'deleted' ? 'GATE-CUST-DELETED-404' : 'GATE-CUST-GET-404',
    },
  });
  if (ex.oracle.status >= 300) return;
  sameFields(r, m, GATE_CUSTOMER_RELATIONS, { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) }, { what: `${c.name} retrieved`, requirementOf: c.rules });
}

export class GetCustomer extends OnCustomer {
  protected readonly verb = 'retrieve';
  act(m: ExploreModel, r: Real): Promise<void> {
    return retrieve(m, r, this.twin(m));
  }
}

const PATCHES: { name: string; body: (n: number) => Record<string, unknown>; rules: Partial<Record<string, RequirementId>> }[] = [
  { name: 'set first_name', body: (n) => ({ first_name: `Grace${n}` }), rules: { first_name: 'GATE-CUST-PATCH-SET' } },
  { name: 'clear last_name', body: () => ({ last_name: null }), rules: { last_name: 'GATE-CUST-PATCH-NULL-CLEARS' } },
  { name: 'set country_code', body: () => ({ country_code: 'FR' }), rules: { country_code: 'GATE-CUST-PATCH-SET' } },
  { name: 'replace metadata', body: (n) => ({ metadata: { step: n } }), rules: { metadata: 'GATE-CUST-PATCH-METADATA-REPLACE' } },
];

/** PATCH: the supplied fields set (null clears), metadata replaced, the omitted ones kept; a deleted customer is 404. */
export class PatchCustomer extends OnCustomer {
  constructor(
    index: number,
    readonly variant: number,
    then: CustomerReadBack = 'none',
  ) {
    super(index, then);
  }
  protected get verb(): string {
    return `PATCH (${PATCHES[this.variant % PATCHES.length]!.name})`;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const c = this.twin(m);
    await readBefore(m, r, c, this.then);
    const p = PATCHES[this.variant % PATCHES.length]!;
    const body = p.body(m.serial);
    const ex = await r.both((side) => r.gate(side).patch(path(c.id[side]), body));
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-CUST-PATCH-SET', 404: 'GATE-CUST-DELETED-404' } });
    if (ex.oracle.status >= 300) return;
    // Fields this PATCH set break its rule; the others, kept, break "omitted fields are unchanged".
    const rules: Partial<Record<string, RequirementId>> = {
      first_name: 'GATE-CUST-PATCH-OMITTED-UNCHANGED',
      last_name: 'GATE-CUST-PATCH-OMITTED-UNCHANGED',
      country_code: 'GATE-CUST-PATCH-OMITTED-UNCHANGED',
      metadata: 'GATE-CUST-PATCH-OMITTED-UNCHANGED',
      ...c.rules,
      ...p.rules,
    };
    sameFields(r, m, GATE_CUSTOMER_RELATIONS, { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) }, { what: `${c.name} as patched`, requirementOf: rules });
    c.rules = { ...c.rules, ...p.rules };
    c.movedBy = Object.values(p.rules)[0] as RequirementId;
    await readBack(m, r, c, this.then);
  }
}

/** DELETE soft-deletes: the marker; a repeat returns the same marker. */
export class DeleteCustomer extends OnCustomer {
  protected readonly verb = 'delete';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const c = this.twin(m);
    await readBefore(m, r, c, this.then);
    const again = c.state === 'deleted';
    const ex = await r.both((side) => r.gate(side).delete(path(c.id[side])));
    const rule: RequirementId = again ? 'GATE-CUST-DELETE-IDEMPOTENT' : 'GATE-CUST-DELETE-MARKER';
    sameOutcome(r, ex, { requirement: { '2xx': rule, 404: rule } });
    if (ex.oracle.status >= 300) return;
    const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
    sameFields(r, m, GATE_DELETED_CUSTOMER_RELATIONS, b, {
      what: `${c.name}'s deletion marker`,
      requirementOf: Object.fromEntries(['id', 'object', 'deleted'].map((f) => [f, rule])),
    });
    if (again && c.marker)
      for (const side of SIDES)
        sameAsBefore(r, rule, 'a repeated delete returns the same marker', side, c.marker[side], b[side], ['id', 'deleted', 'deleted_at'], {
          deleted_at: 'instant',
        });
    c.marker ??= b;
    c.state = 'deleted';
    unlisted(r, 'customers', c.id);
    c.movedBy = rule;
    await readBack(m, r, c, this.then);
  }
}

/** The list: every live customer of the sequence, as it reads on its own; no deleted one. */
async function listCustomers(m: ExploreModel, r: Real): Promise<void> {
  const mine = live(m.customers);
  const active = mine.filter((c) => c.state === 'active');
  const found = await walkList(r, {
    page: (side, after) => r.gate(side).get('/customers', after ? { starting_after: after } : undefined),
    items: (j) => ((j as { data?: Record<string, unknown>[] })?.data ?? []).filter((x) => x && typeof x === 'object'),
    more: (j) => (j as { has_more?: unknown })?.has_more === true,
    cursor: (item) => String(item.id),
    wanted: (side) => new Set(active.map((c) => c.id[side])),
    requirement: 'GATE-CUST-LIST',
    frontier: { list: 'customers', ours: (side, id) => m.customers.some((c) => c.id[side] === id) },
  });
  for (const c of mine) {
    const t = found.target.get(c.id.target);
    const o = found.oracle.get(c.id.oracle);
    if (c.state === 'deleted') {
      holds(r, !t, 'GATE-CUST-LIST-EXCLUDES-DELETED', () => ({ what: `${c.name} (deleted) in the list`, target: 'listed', oracle: o ? 'listed' : 'absent' }));
      continue;
    }
    if (!o) continue;
    if (!t) {
      holds(r, !found.complete.target, 'GATE-CUST-LIST', () => ({ what: `${c.name} in the list`, target: 'absent', oracle: 'listed' }));
      continue;
    }
    sameFields(r, m, GATE_CUSTOMER_RELATIONS, { target: t.item, oracle: o.item }, { what: `${c.name} as listed`, requirementOf: c.rules });
  }
}

export class ListCustomers extends ExploreCommand {
  label(): string {
    return 'list customers';
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && live(m.customers).length > 0;
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return listCustomers(m, r);
  }
}

export function customerCommands(): fc.Arbitrary<ExploreCommand>[] {
  const i = objectIndex();
  const then = fc.constantFrom<CustomerReadBack>('get', 'around', 'list');
  return [
    fc.constantFrom<CustomerReadBack>('get', 'list').map((t) => new CreateCustomer(t)),
    i.map((n) => new GetCustomer(n)),
    fc.tuple(i, fc.nat(PATCHES.length - 1), then).map(([n, v, t]) => new PatchCustomer(n, v, t)),
    fc.tuple(i, then).map(([n, t]) => new DeleteCustomer(n, t)),
    i.map((n) => new DuplicateCustomer(n, 'email')),
    fc.constant(null).map(() => new ListCustomers()),
    i.map((n) => new ReplayCreateCustomer(n)),
    // Each unique field its own operation: a small interaction repeats the same one around a change (a PATCH).
    i.map((n) => new DuplicateCustomer(n, 'external_id')),
  ];
}
