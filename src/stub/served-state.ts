// What the pipeline reads now (EngineState) and the sticky scenario chosen on it: the part every
// stub shares, the server's (served-version.ts adds files and reloads) and the fetch handler's
// in-memory one. A change of scenario or version replaces the state whole, so a request being
// answered keeps reading the state it started with.
import type { EngineState } from '../engine/pipeline.js';

export class ServedState {
  constructor(
    private state: EngineState,
    protected readonly warn: (line: string) => void,
  ) {}

  /** What the pipeline reads now; replaced whole by a reload or a sticky scenario change. */
  get current(): EngineState {
    return this.state;
  }

  /** Makes `name` the scenario for requests without a selection header; false if no operation has it. */
  useScenario(name: string): boolean {
    const known = [...this.state.scenarios.values()].some((scenarios) => scenarios.has(name));
    if (known) this.state = { ...this.state, sticky: name };
    return known;
  }

  /** `useScenario` for the public APIs (startStub, createStubApp, the fetch handler): throws when no operation has it. */
  useKnownScenario(name: string): void {
    if (!this.useScenario(name)) throw new Error(`no operation has a scenario "${name}"; known: ${this.scenarioNames().join(', ')}`);
  }

  clearScenario(): void {
    this.state = { ...this.state, sticky: null };
  }

  /** Every scenario name of every operation, once each. */
  scenarioNames(): string[] {
    return [...new Set([...this.state.scenarios.values()].flatMap((scenarios) => [...scenarios.keys()]))];
  }

  /**
   * Serves `loaded` from now on. The sticky scenario is decided now, against the state as it is:
   * a PUT or DELETE of /__admin/scenario made while the files were loading is kept.
   */
  protected serve(loaded: EngineState): void {
    this.state = { ...loaded, sticky: this.keptSticky(loaded) };
  }

  private keptSticky(loaded: EngineState): string | null {
    const sticky = this.state.sticky;
    if (sticky === null) return null;
    if ([...loaded.scenarios.values()].some((scenarios) => scenarios.has(sticky))) return sticky;
    // A client relying on the sticky scenario suddenly gets the default answer: say why.
    this.warn(`warning: the sticky scenario "${sticky}" is no longer in the fixtures; it was cleared`);
    return null;
  }
}
