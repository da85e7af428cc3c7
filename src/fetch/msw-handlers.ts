// openApiHandlers: the stub as MSW request handlers, for setupWorker (a browser's service worker)
// and setupServer (Node's interceptors). One handler takes every request and hands it to the
// fetch handler; a request no operation of the document is at falls through to the next handler,
// or to the network.
// msw/core/http alone: the package's main entry also pulls in its GraphQL support (the graphql
// package), most of a page bundle's size.
import { http } from 'msw/core/http';
import type { HttpHandler } from 'msw';
import { createFetchHandler, type FetchHandler } from './fetch-handler.js';
import type { FetchHandlerOptions } from './fetch-options.js';

/** The handlers to spread into setupWorker / setupServer, with the stub behind them (its journal, coverage, sticky scenario). */
export type OpenApiHandlers = HttpHandler[] & { stub: FetchHandler };

/**
 * Resolves to MSW handlers answering every documented operation under `options.baseUrl` as the
 * server would (`passthrough` is always on: other requests go on to your other handlers).
 * @example
 *   const handlers = await openApiHandlers({ document, fixtures: [createPlant], baseUrl: 'https://api.example.com' });
 *   await setupWorker(...handlers).start();
 *   handlers.stub.requests(); // what the page sent
 */
export async function openApiHandlers(options: FetchHandlerOptions): Promise<OpenApiHandlers> {
  const stub = await createFetchHandler({ ...options, passthrough: true });
  // MSW hands the resolver a request of its own; undefined lets the next handler (or the network) answer.
  const handler = http.all('*', ({ request }) => stub(request));
  return Object.assign([handler], { stub });
}
