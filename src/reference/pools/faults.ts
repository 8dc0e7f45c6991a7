// Every pools area and its seeded faults (each breaks exactly one documented rule).
import type { FaultDef } from '../kit/faults.js';
import { area as auth } from './auth.js';
import { area as balanceFunding } from './balanceFunding.js';
import { area as discovery } from './discovery.js';
import { area as quotes } from './quotes.js';
import { area as sandboxHelpers } from './sandboxHelpers.js';
import { area as storedQuotes } from './storedQuotes.js';
import { area as trades } from './trades.js';
import { area as transact } from './transact.js';
import type { PoolsArea } from './world.js';

export const POOLS_AREAS: PoolsArea[] = [auth, discovery, quotes, transact, storedQuotes, trades, balanceFunding, sandboxHelpers];

export const POOLS_FAULTS: FaultDef[] = POOLS_AREAS.flatMap((a) => a.faults);
