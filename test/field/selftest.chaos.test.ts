// Every chaos fault caught in field worlds with the clock 2 s behind, webhook faults staged by the receiver
// (test/field/selftestInTheField.ts).
import { chaosSelfTest } from '../support/selftest.js';
import { selfTestInTheField } from './selftestInTheField.js';

selfTestInTheField(
  'chaos',
  -2,
  'every chaos fault is caught by an assertion naming its requirement, and every chaos check is proven (webhook faults staged by the receiver)',
  (start, tp) => chaosSelfTest(start, tp, 8),
);
