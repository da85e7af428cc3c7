// A document named by an http(s) URL, as Prism's `mock https://…/openapi.yaml` takes one: read
// at the start and again at each reload (POST /__admin/reload); there is no file to watch.
// `$ref`s in it are resolved against its URL by the bundler (load-document.ts).
import { ConfigError } from '../config/config-error.js';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { isLoopbackName } from '../common/loopback.js';
import { readCapped } from '../common/read-capped.js';

/** How long the download may take: a large document on a slow link, but never a start that hangs. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** An http or https URL: read by downloading it. Other schemes are left to the file reader's message. */
export function isRemoteDocument(spec: string): boolean {
  return /^https?:\/\//i.test(spec);
}

/**
 * A document on this machine or at a private address (10/8, 172.16/12, 192.168/16, link-local,
 * an IPv4 address written as IPv6): its `$ref`s may reach the same kind of address. One on a
 * public host may not (the bundler's own guard), so a public document cannot make the stub fetch
 * from the network it runs in.
 */
export function isPrivateDocument(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return isLoopbackName(host) || isPrivateAddress(host);
}

/** Addresses of this machine, private networks, link-local ones (169.254.169.254 answers cloud credentials) and unspecified ones. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

/** An IP address in one of those networks (an IPv4 address written as IPv6, ::ffff:127.0.0.1, is judged as IPv4). */
function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A redirect's target judged as the bundler judges a `$ref`: by its name, and by the addresses the name resolves to. */
async function leadsToPrivate(url: string): Promise<boolean> {
  if (isPrivateDocument(url)) return true;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return false;
  const addresses = await lookup(host, { all: true }).catch(() => []);
  return addresses.some(({ address }) => isPrivateAddress(address));
}

/** Larger than any public document tried (GitHub's is 13 MB): a limit on what a wrong URL can fill memory with. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** What was downloaded, and from where after redirects: the base its relative `$ref`s resolve against. */
export interface Downloaded {
  text: string;
  url: string;
}

/** Redirects followed, at most, as browsers and curl -L do. */
const MAX_REDIRECTS = 10;

/**
 * The document's text; a failure is a ConfigError naming the URL and what to do. Redirects are
 * followed one hop at a time, each judged as a `$ref` is: a document on a public host may not
 * lead, by any route, to one on this machine or a private network (`isPrivate` is the judge).
 */
export async function downloadDocument(url: string, isPrivate: (url: string) => boolean | Promise<boolean> = leadsToPrivate): Promise<Downloaded> {
  const offline = `download it yourself (curl -sLo openapi.yaml '${url}') and pass --spec openapi.yaml`;
  const fromPublic = !(await isPrivate(url));
  let at = url;
  let response: Response;
  for (let hops = 0; ; hops++) {
    try {
      response = await fetch(at, {
        headers: { accept: 'application/yaml, application/json;q=0.9, text/yaml;q=0.9, */*;q=0.5' },
        redirect: 'manual',
        signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ConfigError(url, `could not be downloaded (${networkReason(error)}); check the address, or ${offline}`);
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) break;
    await response.body?.cancel();
    const next = new URL(location, at).href;
    if (!isRemoteDocument(next)) throw new ConfigError(url, `redirects to ${next}, which is not an http(s) URL; ${offline}`);
    if (fromPublic && (await isPrivate(next))) throw new ConfigError(url, `redirects to ${next}: a document on a public host may not lead to this machine or a private network; if that document is yours, pass its own URL`);
    if (hops + 1 >= MAX_REDIRECTS) throw new ConfigError(url, `redirects more than ${MAX_REDIRECTS} times; ${offline}`);
    at = next;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ConfigError(url, `could not be downloaded: the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}; check the address, or ${offline}`);
  }
  const tooLarge = () => new ConfigError(url, `is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB; is this the document? Else ${offline}`);
  if (Number(response.headers.get('content-length')) > MAX_DOCUMENT_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  // Counted as it arrives: a server that announces no length (or lies) cannot fill memory past the cap.
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(response.body, MAX_DOCUMENT_BYTES);
  } catch (error) {
    throw new ConfigError(url, `the download broke off (${networkReason(error)}); try again, or ${offline}`);
  }
  if (read.exceeded) throw tooLarge();
  return { text: new TextDecoder().decode(read.bytes), url: at };
}

/** `ECONNREFUSED`, `ENOTFOUND`, `no answer within 30 s`: what fetch's TypeError hides in its cause. */
function networkReason(error: unknown): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
