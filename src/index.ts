// The package's public API: start the stub from a test, or build it as an Express app to mount.
export { startStub, type RunningStub } from './http/server.js';
export { createStubApp, type StubApp } from './http/stub-app.js';
export type { StubOptions } from './config/options.js';
export { ConfigError } from './config/config-error.js';
export type { JournalEntry, JournalFilter } from './record/journal.js';
export type { CoverageReport } from './record/coverage.js';
export type { DriftReport } from './record/drift.js';
export type { DocumentWarning } from './openapi/document-warnings.js';
export type { StubControl, SessionControl } from './stub/stub-control.js';
export type { AddedScenario } from './stub/added-scenarios.js';
export type { ServedSummary } from './stub/stub.js';
