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

export interface StubControl {
  /** Journal entries, oldest first. */
  requests(filter?: JournalFilter): JournalEntry[];
  /** Empties the journal, resets coverage and clears the sticky scenario (POST /__admin/reset does the same). */
  reset(): void;
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

/** What every stub hands out, the server's and the fetch handler's in-memory one: its records and the sticky scenario. */
export type RecordsControl = Pick<StubControl, 'requests' | 'reset' | 'coverage' | 'useScenario' | 'clearScenario'>;

export function recordsControl(recorder: Recorder, version: ServedState): RecordsControl {
  return {
    requests: (filter) => recorder.requests(filter),
    // A failed test must not leak its sticky scenario into every later one.
    reset: () => {
      recorder.reset();
      version.clearScenario();
    },
    coverage: () => recorder.coverageReport(),
    useScenario: (name) => version.useKnownScenario(name),
    clearScenario: () => version.clearScenario(),
  };
}

export function controlOf(stub: Stub): StubControl {
  return {
    ...recordsControl(stub.recorder, stub.version),
    drift: () => stub.admin.drift(),
    warnings: () => stub.admin.warnings(),
    served: () => stub.served(),
    close: () => stub.close(),
  };
}
