// The oracle worlds a race replays its candidate orders on: fresh copies of the embedded reference on loopback, each
// from the same starting state, made by the CLI (src/cli/oracle.ts oracleWorlds) and handed to the races kind through
// its context — the harness never imports the reference. One world per order, closed when the order is compared.
import type { Profile } from '../profile/schema.js';

/** What a fresh world starts from: the target's pools balance as read before the burst, and the readings it takes. */
export interface WorldSpec {
  poolsOpeningBalance?: string;
  /** Open points (inventory id → one of its documented choices) the world reads that way. */
  readings?: Readonly<Record<string, string>>;
}

export interface RaceWorld {
  /** The world's own profile: the target's partners by name, its base URLs on loopback, its own triggers. */
  profile: Profile;
  close(): Promise<void>;
}

export interface RaceWorlds {
  fresh(spec?: WorldSpec): Promise<RaceWorld>;
}
