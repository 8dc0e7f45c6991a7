// Gate "What the service does": the rules the overview states for every
// resource — each is scoped to the partner and the environment of the
// credential, and partner_id names the owning partner. (Reads by id of another
// partner's objects are catalogued with their endpoints; lists with theirs.)
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'What the service does',
  entries: {
    'GATE-CONV-OBJECT-DISCRIMINATOR': {
      title:
        'single-object responses whose fields are otherwise not shown carry an object discriminator string: the signed quote on POST /quotes and GET /quotes/{id}, the pay-in creation, the embed bootstrap',
      kind: 'field',
      section: 'Resources and their fields > Conventions',
      anchor: 'Single-object responses carry an `object` discriminator string.',
    },
    'GATE-TENANT-PARTNER-ID': {
      title: "partner_id names the owning partner: one partner's sessions and customers carry the same partner_id, another partner's a different one",
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: ['| partner_id | string | owning partner |', '| partner_id | string |'],
    },
    'GATE-TENANT-LIVE-ISOLATION': {
      title:
        'Every resource is scoped to the environment of the credential: a live key on the production base never reads or lists what a test key created (404 by id, absent from the session list), and every session it lists is mode live',
      kind: 'auth',
      anchor: [
        'Every resource is scoped to the partner and the environment (test or live) of the credential.',
        '(production) and `{sandbox_base_url}` (sandbox, test keys)',
      ],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/overview': typeof area.entries;
  }
}
