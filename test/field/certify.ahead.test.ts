// certify in the field world, the target's clock 2 s ahead, the profile's partners in reverse order (test/field/certifyInTheField.ts).
import { CONDITIONS, certifyInTheField } from './certifyInTheField.js';

certifyInTheField(CONDITIONS[0]!);
