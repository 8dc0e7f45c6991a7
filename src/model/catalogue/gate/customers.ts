// Gate "Endpoints > Customers" with the Customer resource, its soft delete and limits.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Customers',
  entries: {
    'GATE-CUST-CREATE': { title: 'POST /customers with an Idempotency-Key creates a Customer (object customer, mode, livemode, external_id, email, phone, names, country_code, kyc_status, metadata, timestamps)', kind: 'status' },
    'GATE-CUST-GET': { title: 'GET /customers/{id} answers the Customer', kind: 'status' },
    'GATE-CUST-GET-404': { title: 'GET /customers/{id} of a missing customer gives 404', kind: 'error' },
    'GATE-CUST-FOREIGN-404': { title: 'GET /customers/{id} of another partner\'s customer gives 404', kind: 'auth' },
    'GATE-CUST-LIST': { title: 'GET /customers answers a list of Customer', kind: 'envelope' },
    'GATE-CUST-DUP-EMAIL-409': { title: 'Creating a customer with a duplicate email gives 409 conflict', kind: 'error' },
    'GATE-CUST-DUP-EXTERNAL-ID-409': { title: 'Creating a customer with a duplicate external_id gives 409 conflict', kind: 'error' },
    'GATE-CUST-DUP-SOFT-DELETED-409': { title: 'A soft-deleted customer\'s email and external_id stay reserved: duplicates give 409', kind: 'error', section: 'States and transitions > Other' },
    'GATE-CUST-PATCH-SET': { title: 'PATCH /customers/{id} sets first_name, last_name and country_code; 200 with the Customer', kind: 'field' },
    'GATE-CUST-PATCH-NULL-CLEARS': { title: 'PATCH with null clears first_name, last_name, country_code', kind: 'field' },
    'GATE-CUST-PATCH-OMITTED-UNCHANGED': { title: 'PATCH leaves omitted fields unchanged', kind: 'field' },
    'GATE-CUST-PATCH-METADATA-REPLACE': { title: 'PATCH metadata replaces the stored object (no merge)', kind: 'field' },
    'GATE-CUST-PATCH-IMMUTABLE-400': { title: 'PATCH of email, phone, external_id (immutable) or kyc_status, mode (server-managed) gives 400 invalid_request', kind: 'error', section: 'Resources and their fields > Customer' },
    'GATE-CUST-PATCH-UNKNOWN-400': { title: 'PATCH with an unknown key gives 400 invalid_request', kind: 'error' },
    'GATE-CUST-PATCH-NAME-MAX': { title: 'first_name and last_name of 128 chars are accepted, 129 gives 400', kind: 'limit', section: 'Limits' },
    'GATE-CUST-COUNTRY-PATTERN': { title: 'country_code matches ^[A-Za-z]{2}$; other values give 400', kind: 'field', section: 'Resources and their fields > Customer' },
    'GATE-CUST-DELETE-MARKER': { title: 'DELETE /customers/{id} soft-deletes: 200 with the marker (id, object customer, deleted true, deleted_at)', kind: 'transition' },
    'GATE-CUST-DELETE-IDEMPOTENT': { title: 'A repeated DELETE returns the same marker', kind: 'idempotency' },
    'GATE-CUST-DELETED-404': { title: 'A soft-deleted customer reads as 404', kind: 'transition', section: 'States and transitions > Other' },
    'GATE-CUST-LIST-EXCLUDES-DELETED': { title: 'A soft-deleted customer is excluded from GET /customers', kind: 'transition', section: 'States and transitions > Other' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/customers': typeof area.entries;
  }
}
