// What a world's choice at an open point of the gate side changes in its profile besides reference.dialect (a knob
// of the reference, a value the profile then declares, a template): see src/reference/dialect.ts. A profile a world
// builds tells the harness what a partner's profile would: the lifetimes it declares, its triggers' words, the
// fields its customers need — never a hint a real partner's profile could not give.
import type { OpenPointId } from '../../model/openPoints/index.js';
import type { ProfileJson, WorldEffect } from '../kit/dialect.js';

/** The other generic 5xx text a world may write (the spec says only "a generic internal error text"). */
const BUSY_TEXT = 'The service is busy: please try again at 10:30 (UTC).';

/** A declared lifetime: the reference issues it, and the profile declares it (timing), as a sandbox documents its own. */
function lifetime(reference: 'sessionLifetimeSeconds' | 'signedQuoteLifetimeSeconds', own: string): WorldEffect {
  return (p: ProfileJson, choice: string) => {
    if (choice === own) return;
    const s = Number(choice);
    p.reference = { ...(p.reference ?? {}), [reference]: s };
    p.timing = { ...(p.timing ?? {}), [reference]: s };
  };
}

/** A tenth of a decimal string, exact (a cap of 5000.00 becomes 500.000). */
function tenth(d: string): string {
  const [i = '0', f = ''] = d.split('.');
  const digits = (i + f).replace(/^0+(?=\d)/, '');
  const scale = f.length + 1;
  const padded = digits.padStart(scale + 1, '0');
  return `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
}

/** A knob of the reference that is a reading: the world's choice is its value (on any base profile, the second world's too). */
function knob(name: string, value: (choice: string) => unknown = (c) => c): WorldEffect {
  return (p: ProfileJson, choice: string) => {
    const v = value(choice);
    p.reference = { ...(p.reference ?? {}), [name]: v };
    if (v === undefined) delete p.reference[name];
  };
}

export const GATE_WORLD_EFFECTS: Partial<Record<OpenPointId, WorldEffect>> = {
  'gate.keys.alphabet': knob('keyAlphabet'),
  'gate.session.unsentFlow': knob('unsentFlow'),
  'gate.customer.kycMoves': knob('customerKycPendingAfterSeconds', (c) => (c === 'after-1s' ? 1 : undefined)),
  'gate.events.liveHttp': knob('liveHttpWebhooks'),
  'gate.deliveries.listOrder': knob('deliveryListOrder'),
  'gate.errors.serverMessage': knob('serverErrorMessage', (c) => (c === 'names-a-time' ? BUSY_TEXT : undefined)),
  'gate.session.lifetime': lifetime('sessionLifetimeSeconds', '1800'),
  'gate.signedQuote.lifetime': lifetime('signedQuoteLifetimeSeconds', '600'),

  // The 5xx control arms the partner's next request: the profile's serverError trigger arms it, then sends the request judged.
  'gate.controls.serverError': (p, choice) => {
    const triggers = p.gate?.triggers;
    if (choice !== 'arms-next' || !triggers?.serverError) return;
    const prefix: string = p.reference?.helperPrefix ?? '/_sandbox';
    triggers.serverError = {
      $comment: "The sandbox's 5xx control arms the partner's next request: the request after it is the one that fails, and the one judged.",
      arm: [{ method: 'POST', path: `${prefix}/fail_next`, body: {} }],
      method: 'GET',
      path: '/gate_sessions',
    };
  },

  // The per-user volume cap each partner declares (railVolumeCap), a tenth of the profile's own.
  'gate.rails.volumeCap': (p, choice) => {
    if (choice !== 'tenth') return;
    for (const partner of p.gate?.partners ?? []) if (typeof partner.railVolumeCap === 'string') partner.railVolumeCap = tenth(partner.railVolumeCap);
  },

  // A creation needs a country_code too: the profile's customer template gives it, as a partner's would.
  'gate.customer.createFields': (p, choice) => {
    if (choice !== 'country-required' || !p.gate) return;
    p.gate.customerTemplate = { ...(p.gate.customerTemplate ?? {}), country_code: 'DE' };
  },

  // The dashboard's own words: webhook-settings takes url, the rotation answers signing_secret.value.
  'gate.dashboard.shapes': (p, choice) => {
    if (choice !== 'nested' || !p.gate) return;
    const configure = p.gate.triggers?.configureWebhook;
    if (configure?.body && typeof configure.body === 'object' && 'webhook_url' in configure.body) {
      const { webhook_url, ...rest } = configure.body as Record<string, unknown>;
      configure.body = { ...rest, url: webhook_url };
    }
    if (p.gate.rotatedSecretPath) p.gate.rotatedSecretPath = 'signing_secret.value';
  },
};
