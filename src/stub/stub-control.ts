// What the public API hands out of a stub (RunningStub.stub, StubApp.stub): the journal, coverage,
// the sticky scenario and what is served, never the class and its served state.
import type { CoverageReport } from '../record/coverage.js';
import type { DriftReport } from '../record/drift.js';
import type { DocumentWarning } from '../openapi/document-warnings.js';
import type { JournalEntry, JournalFilter } from '../record/journal.js';
import type { ServedSummary, Stub } from './stub.js';

export interface StubControl {
  /** Journal entries, oldest first. */
  requests(filter?: JournalFilter): JournalEntry[];
  /** Empties the journal and resets coverage. */
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

export function controlOf(stub: Stub): StubControl {
  return {
    requests: (filter) => stub.requests(filter),
    reset: () => stub.reset(),
    coverage: () => stub.coverageReport(),
    drift: () => stub.admin.drift(),
    warnings: () => stub.admin.warnings(),
    useScenario: (name) => {
      if (!stub.useScenario(name)) throw new Error(`no operation has a scenario "${name}"; known: ${stub.scenarioNames().join(', ')}`);
    },
    clearScenario: () => stub.clearScenario(),
    served: () => stub.served(),
    close: () => stub.close(),
  };
}
