// The package's `plant-store-stub/msw` entry: the stub as MSW (Mock Service Worker) handlers for
// setupWorker in a browser and setupServer in Node. Needs `msw` 2 installed beside it; imports
// nothing of Node (test/runtimes-bundle.test.ts bundles it for a browser).
export { openApiHandlers, type OpenApiHandlers } from './fetch/msw-handlers.js';
export type { FetchHandler } from './fetch/fetch-handler.js';
export type { FetchHandlerOptions } from './fetch/fetch-options.js';
export { ConfigError } from './config/config-error.js';
