// The choice the embedded target takes at one open point of the specs (src/model/openPoints): the profile's
// reference.dialect, else the reference's own (the point's first choice). Every area reads its points here, by
// id, so a test can hold each point to a place in the reference that takes it.
import { chosen, type ChoiceOf, type OpenPointId } from '../../model/openPoints/index.js';
import type { Profile } from '../../profile/schema.js';

export function choiceOf<K extends OpenPointId>(profile: Profile, id: K): ChoiceOf<K> {
  return chosen(profile.reference?.dialect, id);
}

/** A profile as JSON, before the schema's defaults (what a world's choice edits). */
export type ProfileJson = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What a choice changes in a world's profile besides reference.dialect (a knob, a declared value, the controls'
 * templates): src/reference/dialect.ts applies it. Points without an effect are taken by the reference's own code
 * (choiceOf in its areas).
 */
export type WorldEffect = (profile: ProfileJson, choice: string) => void;
