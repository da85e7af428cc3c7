// A document named by an http(s) URL, as Prism's `mock https://…/openapi.yaml` takes one: read
// at the start and again at each reload (POST /__admin/reload); there is no file to watch.
// `$ref`s in it are resolved against its URL by the bundler (load-document.ts).
import { ConfigError } from '../config/config-error.js';
import { isLoopbackName } from '../common/loopback.js';

/** How long the download may take: a large document on a slow link, but never a start that hangs. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** An http or https URL: read by downloading it. Other schemes are left to the file reader's message. */
export function isRemoteDocument(spec: string): boolean {
  return /^https?:\/\//i.test(spec);
}

/**
 * A document on this machine or at a private address (10/8, 172.16/12, 192.168/16): its `$ref`s
 * may reach the same kind of address. One on a public host may not (the bundler's own guard),
 * so a public document cannot make the stub fetch from the network it runs in.
 */
export function isPrivateDocument(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isLoopbackName(host) || /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)\d+\.\d+/.test(host) || /^f[cd][0-9a-f]{2}:/i.test(host);
}

/** Larger than any public document tried (GitHub's is 13 MB): a limit on what a wrong URL can fill memory with. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** What was downloaded, and from where after redirects: the base its relative `$ref`s resolve against. */
export interface Downloaded {
  text: string;
  url: string;
}

/** The document's text; a failure is a ConfigError naming the URL and what to do. */
export async function downloadDocument(url: string): Promise<Downloaded> {
  const offline = `download it yourself (curl -sLo openapi.yaml '${url}') and pass --spec openapi.yaml`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/yaml, application/json;q=0.9, text/yaml;q=0.9, */*;q=0.5' },
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ConfigError(url, `could not be downloaded (${networkReason(error)}); check the address, or ${offline}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ConfigError(url, `could not be downloaded: the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}; check the address, or ${offline}`);
  }
  if (Number(response.headers.get('content-length')) > MAX_DOCUMENT_BYTES) {
    await response.body?.cancel();
    throw new ConfigError(url, `is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB; is this the document? Else ${offline}`);
  }
  try {
    return { text: await response.text(), url: response.url || url };
  } catch (error) {
    throw new ConfigError(url, `the download broke off (${networkReason(error)}); try again, or ${offline}`);
  }
}

/** `ECONNREFUSED`, `ENOTFOUND`, `no answer within 30 s`: what fetch's TypeError hides in its cause. */
function networkReason(error: unknown): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
