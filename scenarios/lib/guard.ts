// A scenario function that throws leaves k6 running (the iteration is just
// interrupted) and k6 may still exit 0 with the checks that ran before it
// passed. Each exec function is wrapped so the throw leaves a record: rampart
// fails every requirement of the scenario when it finds one.
import { emit } from './emit.ts';

export function guarded<A extends unknown[], R>(label: string, fn: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    try {
      return fn(...args);
    } catch (e) {
      emit({ kind: 'aborted', case: label, message: String((e as Error)?.message ?? e).slice(0, 300) });
      throw e;
    }
  };
}
