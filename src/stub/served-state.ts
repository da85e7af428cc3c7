// What the pipeline reads now (EngineState) and the sticky scenario chosen on it: the part every
// stub shares (stub-core.ts), the server's (served-version.ts adds files and reloads) and the
// fetch handler's. A change of scenario or version replaces the state whole, so a request being
// answered keeps reading the state it started with.
import type { EngineState } from '../engine/pipeline.js';
import { DEFAULT_SESSION, Sessions } from '../engine/sessions.js';
import { addScenario, removeScenario } from './added-scenarios.js';

export class ServedState {
  constructor(
    protected state: EngineState,
    protected readonly warn: (line: string) => void,
  ) {}

  /** What the pipeline reads now; replaced whole by a reload or a sticky scenario change. */
  get current(): EngineState {
    return this.state;
  }

  /** What scripted answers remember, per session (sequence positions, counts, added answers). */
  get sessions(): Sessions {
    return (this.state.sessions ??= new Sessions());
  }

  /** Makes `name` the scenario for the session's requests without a selection header; false if no operation has it. */
  useScenario(name: string, session = DEFAULT_SESSION): boolean {
    const known = this.scenarioNames(session).includes(name);
    if (!known) return false;
    if (session === DEFAULT_SESSION) this.state = { ...this.state, sticky: name };
    else this.sessions.play(session).sticky = name;
    return true;
  }

  /** `useScenario` for the public APIs (startStub, createStubApp, the fetch handler): throws when no operation has it. */
  useKnownScenario(name: string, session = DEFAULT_SESSION): void {
    if (!this.useScenario(name, session)) throw new Error(`no operation has a scenario "${name}"; known: ${this.scenarioNames(session).join(', ')}`);
  }

  clearScenario(session = DEFAULT_SESSION): void {
    if (session === DEFAULT_SESSION) this.state = { ...this.state, sticky: null };
    else if (this.sessions.peek(session)) this.sessions.play(session).sticky = null;
  }

  /** Every scenario name of every operation, once each, with those added for the session. */
  scenarioNames(session = DEFAULT_SESSION): string[] {
    const added = [...(this.sessions.peek(session)?.added.values() ?? [])].flat().map((scenario) => scenario.name);
    return [...new Set([...added, ...[...this.state.scenarios.values()].flatMap((scenarios) => [...scenarios.keys()])])];
  }

  /** Adds a scenario checked against the document (a ConfigError naming the pointer when it does not fit); returns its name. */
  addScenario(definition: unknown, source: string): { name: string; session: string } {
    return addScenario(this.state, this.sessions, definition, source);
  }

  /** Takes an added scenario away; false when the session has none of that name. */
  removeScenario(name: string, session = DEFAULT_SESSION): boolean {
    return removeScenario(this.sessions, name, session);
  }

  /**
   * Forgets what scripted answers remember, for one session or all: sticky scenarios, sequence
   * positions, counts of `times`, added scenarios.
   */
  resetScripts(session?: string): void {
    this.sessions.clear(session);
    if (session === undefined || session === DEFAULT_SESSION) this.clearScenario();
  }
}
