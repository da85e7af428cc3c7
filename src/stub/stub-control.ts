// What the public API hands out of a stub (RunningStub, StubApp.stub, and in part the fetch
// handler): the journal, coverage, the sticky scenario and what is served, never the class and its
// served state. Declared once here; RunningStub is this plus its server.
import type { CoverageReport } from '../record/coverage.js';
import type { DriftReport } from '../record/drift.js';
import type { DocumentWarning } from '../openapi/document-warnings.js';
import type { JournalEntry, JournalFilter } from '../record/journal.js';
import type { ServedSummary, Stub } from './stub.js';
import type { Recorder } from './recorder.js';
import type { ServedState } from './served-state.js';
import type { AddedScenario } from './added-scenarios.js';
import type { StateResets } from './stub-core.js';

export interface StubControl {
  /** Journal entries, oldest first. */
  requests(filter?: JournalFilter): JournalEntry[];
  /**
   * Empties the journal, resets coverage, and forgets what scripted answers remember: sticky
   * scenarios, sequence positions, counts, added scenarios (POST /__admin/reset does the same).
   * `state: true` also puts stateful mode's store back to its seeded start (resolved once it is).
   */
  reset(options?: { state?: boolean }): Promise<void>;
  /** Adds a scenario, checked as a fixture's is (throws a ConfigError naming the pointer); returns its name. */
  use(scenario: AddedScenario): string;
  /** Takes an added scenario away; false when there is none of that name. */
  removeScenario(name: string): boolean;
  /** The same control scoped to one session (requests sending `session.headers`). */
  session(name: string): SessionControl;
  coverage(): CoverageReport;
  /** --proxy: where the real API and the document disagree, since the last reset. */
  drift(): DriftReport;
  /** The document's flaws (GET /__admin/warnings), printed or not. */
  warnings(): readonly DocumentWarning[];
  /** Makes a scenario the default for requests without selection headers (throws if unknown). */
  useScenario(name: string): void;
  clearScenario(): void;
  /** The document's title and operations. */
  served(): ServedSummary;
  /** Stops the stub's own work (file watching, journal streams, the state file); the server's close does this too. */
  close(): void;
}

/** One session's part of the stub: its sticky scenario, sequences, counts, added scenarios and journal entries. */
export interface SessionControl {
  readonly name: string;
  /** What a request sends to be in this session. */
  readonly headers: Readonly<Record<string, string>>;
  requests(filter?: JournalFilter): JournalEntry[];
  use(scenario: Omit<AddedScenario, 'session'>): string;
  removeScenario(name: string): boolean;
  useScenario(name: string): void;
  clearScenario(): void;
  /** Forgets this session's sticky scenario, sequence positions, counts, added scenarios and own store; the journal keeps its entries. */
  reset(): void;
}

/** What every host hands out, the server's stub and the fetch handler: its records and the scripted answers. */
export type RecordsControl = Pick<StubControl, 'requests' | 'reset' | 'coverage' | 'useScenario' | 'clearScenario' | 'use' | 'removeScenario' | 'session'>;

export function recordsControl(recorder: Recorder, version: ServedState, state?: StateResets): RecordsControl {
  return {
    requests: (filter) => recorder.requests(filter),
    // A failed test must not leak its sticky scenario, sequence positions or added answers into every later one.
    reset: async (options = {}) => {
      recorder.reset();
      version.resetScripts();
      state?.sessions();
      if (options.state && state) await state.all();
    },
    coverage: () => recorder.coverageReport(),
    useScenario: (name) => version.useKnownScenario(name),
    clearScenario: () => version.clearScenario(),
    use: (scenario) => version.addScenario(scenario, 'stub.use').name,
    removeScenario: (name) => version.removeScenario(name),
    session: (name) => sessionControl(recorder, version, name, state),
  };
}

function sessionControl(recorder: Recorder, version: ServedState, name: string, state?: StateResets): SessionControl {
  if (typeof name !== 'string' || name.trim() === '') throw new Error('a session needs a name (what its requests send in X-Mock-Session)');
  const session = name.trim();
  return {
    name: session,
    headers: { 'x-mock-session': session },
    requests: (filter = {}) => recorder.requests({ ...filter, session }),
    use: (scenario) => version.addScenario({ ...scenario, session }, 'session.use').name,
    removeScenario: (scenarioName) => version.removeScenario(scenarioName, session),
    useScenario: (scenarioName) => version.useKnownScenario(scenarioName, session),
    clearScenario: () => version.clearScenario(session),
    reset: () => {
      version.resetScripts(session);
      state?.sessions(session);
    },
  };
}

export function controlOf(stub: Stub): StubControl {
  return {
    ...recordsControl(stub.recorder, stub.version, stub.core.stateResets),
    drift: () => stub.admin.drift(),
    warnings: () => stub.admin.warnings(),
    served: () => stub.served(),
    close: () => stub.close(),
  };
}
