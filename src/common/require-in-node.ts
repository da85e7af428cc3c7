// Node's synchronous require, for libraries loaded on first use while compiling (which is
// synchronous): reached through process.getBuiltinModule (Node 20.16+) rather than an import of
// node:module, so that the files using it still bundle for a browser, where the fetch entry
// imports those libraries ahead instead.

/** The CommonJS build of `specifier` in Node; null elsewhere. */
export function requireInNode<T>(specifier: string): T | null {
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
  return nodeModule ? (nodeModule.createRequire(import.meta.url)(specifier) as T) : null;
}
