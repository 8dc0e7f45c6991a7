// Seeded faults: each breaks exactly one documented rule of the embedded
// target, named by the requirement ids it breaks. The self-tests run the
// checks naming those ids against the target with the fault on, and expect
// them to fail.

export interface FaultDef {
  /** kebab-case name used with `rampart serve --fault NAME`. */
  name: string;
  service: 'gate' | 'pools';
  /** Requirement ids (src/model/catalogue) this fault breaks. */
  requirements: string[];
  description: string;
  /** The suite expected to catch it. */
  suite?: 'conformance' | 'load' | 'chaos' | 'explore' | 'races';
}

export class ActiveFaults {
  private readonly names: Set<string>;
  private suspended = false;
  constructor(names: Iterable<string> = []) {
    this.names = new Set(names);
  }
  has(name: string): boolean {
    return !this.suspended && this.names.has(name);
  }
  /** Run `fn` with every fault off: the sandbox's past (its history) is written before the defect under test is on. */
  async without<T>(fn: () => Promise<T>): Promise<T> {
    this.suspended = true;
    try {
      return await fn();
    } finally {
      this.suspended = false;
    }
  }
  list(): string[] {
    return [...this.names];
  }
}
