// The package's `plant-store-stub/fetch` entry: the stub as a fetch handler, for any runtime with
// fetch. Imports nothing of Node (test/runtimes-bundle.test.ts bundles it for a browser).
export { createFetchHandler, type FetchHandler } from './fetch/fetch-handler.js';
export type { FetchHandlerOptions } from './fetch/fetch-options.js';
export { ConfigError } from './config/config-error.js';
export type { JournalEntry, JournalFilter } from './record/journal.js';
export type { CoverageReport } from './record/coverage.js';
