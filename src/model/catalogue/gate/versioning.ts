// Gate "Versioning": what a client can observe over HTTP.
// Left out: the contract version date (2026-05-25) is carried in the
// specification's version field, not in any response or header, so no request
// can observe it; the change policy is "not shown".
import type { Requirement } from '../types.js';

export const requirements: Requirement[] = [
  {
    id: 'GATE-VER-V1-SEGMENT',
    service: 'gate',
    section: 'Versioning',
    title: 'the base addresses end in the major version segment /v1 and the API answers under it',
    kind: 'status',
    roles: ['gate.partner'],
    suite: 'conformance',
  },
];
