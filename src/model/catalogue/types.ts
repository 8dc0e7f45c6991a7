// One entry per atomic documented rule. The catalogue is data: the report and
// every coverage number are computed from it.
import type { RoleName } from '../../profile/roles.js';

export type Service = 'gate' | 'pools';

export type RequirementKind =
  | 'status'
  | 'error'
  | 'field'
  | 'enum'
  | 'pagination'
  | 'limit'
  | 'auth'
  | 'idempotency'
  | 'transition'
  | 'event'
  | 'signature'
  | 'envelope';

/** Which suite is expected to cover the rule. */
export type SuiteName = 'conformance' | 'load' | 'chaos';

export interface Requirement {
  /** Stable id, e.g. GATE-SESS-CANCEL-TERMINAL-409. Never renamed once published. */
  id: string;
  service: Service;
  /** Spec section path, e.g. "Endpoints > Sessions". */
  section: string;
  /** One-line statement of the rule, close to the spec's words. */
  title: string;
  kind: RequirementKind;
  /** Profile roles needed to test the rule. */
  roles: RoleName[];
  suite: SuiteName;
  /** 'full' when testing it needs real time beyond a quick run (the 300/h window, the real retry schedule). */
  depth?: 'quick' | 'full';
}
