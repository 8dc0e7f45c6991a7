// Every conformance fault caught in field worlds with the clock 2 s ahead (test/field/selftestInTheField.ts).
import { conformanceSelfTest } from '../support/selftest.js';
import { selfTestInTheField } from './selftestInTheField.js';

selfTestInTheField(
  'conformance',
  2,
  'every conformance fault is caught by an assertion naming its requirement, and every conformance check is proven',
  (start) => conformanceSelfTest(start, 8),
);
