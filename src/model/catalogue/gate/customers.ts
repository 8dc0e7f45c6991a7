// Gate "Endpoints > Customers" with the Customer resource, its soft delete and limits.
import type { Requirement } from '../types.js';

const EP = 'Endpoints > Customers';
const RES = 'Resources and their fields > Customer';
const ST = 'States and transitions > Other';
const r = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles'] = ['gate.partner']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

export const requirements: Requirement[] = [
  r('GATE-CUST-CREATE', EP, 'POST /customers with an Idempotency-Key creates a Customer (object customer, mode, livemode, external_id, email, phone, names, country_code, kyc_status, metadata, timestamps)', 'status'),
  r('GATE-CUST-GET', EP, 'GET /customers/{id} answers the Customer', 'status'),
  r('GATE-CUST-GET-404', EP, 'GET /customers/{id} of a missing customer gives 404', 'error'),
  r('GATE-CUST-FOREIGN-404', EP, "GET /customers/{id} of another partner's customer gives 404", 'auth', ['gate.partner', 'gate.secondPartner']),
  r('GATE-CUST-LIST', EP, 'GET /customers answers a list of Customer', 'envelope'),
  r('GATE-CUST-DUP-EMAIL-409', EP, 'Creating a customer with a duplicate email gives 409 conflict', 'error'),
  r('GATE-CUST-DUP-EXTERNAL-ID-409', EP, 'Creating a customer with a duplicate external_id gives 409 conflict', 'error'),
  r('GATE-CUST-DUP-SOFT-DELETED-409', ST, "A soft-deleted customer's email and external_id stay reserved: duplicates give 409", 'error'),
  r('GATE-CUST-PATCH-SET', EP, 'PATCH /customers/{id} sets first_name, last_name and country_code; 200 with the Customer', 'field'),
  r('GATE-CUST-PATCH-NULL-CLEARS', EP, 'PATCH with null clears first_name, last_name, country_code', 'field'),
  r('GATE-CUST-PATCH-OMITTED-UNCHANGED', EP, 'PATCH leaves omitted fields unchanged', 'field'),
  r('GATE-CUST-PATCH-METADATA-REPLACE', EP, 'PATCH metadata replaces the stored object (no merge)', 'field'),
  r('GATE-CUST-PATCH-IMMUTABLE-400', RES, 'PATCH of email, phone, external_id (immutable) or kyc_status, mode (server-managed) gives 400 invalid_request', 'error'),
  r('GATE-CUST-PATCH-UNKNOWN-400', EP, 'PATCH with an unknown key gives 400 invalid_request', 'error'),
  r('GATE-CUST-PATCH-NAME-MAX', 'Limits', 'first_name and last_name of 128 chars are accepted, 129 gives 400', 'limit'),
  r('GATE-CUST-COUNTRY-PATTERN', RES, 'country_code matches ^[A-Za-z]{2}$; other values give 400', 'field'),
  r('GATE-CUST-DELETE-MARKER', EP, 'DELETE /customers/{id} soft-deletes: 200 with the marker (id, object customer, deleted true, deleted_at)', 'transition'),
  r('GATE-CUST-DELETE-IDEMPOTENT', EP, 'A repeated DELETE returns the same marker', 'idempotency'),
  r('GATE-CUST-DELETED-404', ST, 'A soft-deleted customer reads as 404', 'transition'),
  r('GATE-CUST-LIST-EXCLUDES-DELETED', ST, 'A soft-deleted customer is excluded from GET /customers', 'transition'),
];
