// certify in the field world, the target's clock 2 s behind, the profile's partners in a seeded shuffle (test/field/certifyInTheField.ts).
import { CONDITIONS, certifyInTheField } from './certifyInTheField.js';

certifyInTheField(CONDITIONS[1]!);
