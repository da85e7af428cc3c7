// What a document's `servers` say to the stub: the base path its operations are served under
// too, and the origins whose links are answered on the stub. Read by compiling and by mounting
// several documents (each under its first server's path unless given another).
import type { OpenApiDocument } from './open-document.js';
import { isObject } from '../common/json-value.js';

/**
 * The path part of the first server's URL, variables replaced by their defaults:
 * `https://api.example.com/v2/` -> `/v2`; '' when there is none.
 */
export function serverBasePath(document: OpenApiDocument): string {
  const [url] = serverUrls(document);
  if (url === undefined) return '';
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(url)?.[1] ?? (url.startsWith('/') ? url : '');
  return path.replace(/\/+$/, '');
}

/** Each server's URL, its variables at their defaults. */
function serverUrls(document: OpenApiDocument): string[] {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  return servers.filter((server) => isObject(server) && typeof server.url === 'string').map((server) => {
    const variables = isObject(server.variables) ? server.variables : {};
    return (server.url as string).replace(/\{([^}]+)\}/g, (_match, name: string) => {
      const variable = variables[name];
      return isObject(variable) && variable.default !== undefined ? String(variable.default) : '';
    });
  });
}

/** The origins (`https://api.github.com`) of the document's absolute server URLs, lower-case. */
export function serverOrigins(document: OpenApiDocument): string[] {
  const origins = serverUrls(document).map((url) => /^(https?:\/\/[^/?#]+)/i.exec(url)?.[1]?.toLowerCase()).filter((origin) => origin !== undefined);
  return [...new Set(origins)];
}
