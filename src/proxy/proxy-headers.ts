// --proxy: the headers that cross the stub, as an intermediary must treat them (RFC 9110 §7.6):
// hop-by-hop headers (and those the Connection header lists) stay on their own hop, `Host` is the
// target's, and `Via` plus the de-facto `X-Forwarded-For/-Proto/-Host` say the request passed here.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** RFC 9110 §7.6.1 and the obsolete ones still seen (Keep-Alive, Proxy-Connection). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);
/** What this stub adds to `Via`: the protocol it received and its name (§7.6.3). */
export const VIA = '1.1 plant-store-stub';

/** The headers to send upstream. `body`: the request body, sent whole (its length replaces the client's framing). */
export function upstreamHeaders(headers: IncomingHttpHeaders, target: URL, clientAddress: string | undefined, body: Uint8Array): OutgoingHttpHeaders {
  const sent: OutgoingHttpHeaders = {};
  const listed = connectionListed(headers.connection);
  for (const [name, value] of Object.entries(headers)) {
    // Expect: 100-continue was the client's handshake with the stub; the body is already here.
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name) || name === 'host' || name === 'expect' || name === 'content-length') continue;
    sent[name] = value;
  }
  if (body.length > 0 || headers['content-length'] !== undefined) sent['content-length'] = String(body.length);
  sent.host = target.host;
  sent.via = appended(headers.via, VIA);
  if (clientAddress !== undefined) sent['x-forwarded-for'] = appended(headers['x-forwarded-for'], clientAddress);
  // What this hop saw, never what the client claims: the stub serves plain HTTP, at the Host it was asked for.
  sent['x-forwarded-proto'] = 'http';
  if (typeof headers.host === 'string') sent['x-forwarded-host'] = headers.host;
  else delete sent['x-forwarded-host'];
  return sent;
}

/** The upstream's answer headers as the client gets them: the same, hop-by-hop ones left out, Via added. */
export function clientHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const passed: OutgoingHttpHeaders = {};
  const listed = connectionListed(headers.connection);
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !listed.has(name)) passed[name] = value;
  }
  passed.via = appended(headers.via, VIA);
  return passed;
}

function connectionListed(connection: string | undefined): Set<string> {
  return new Set((connection ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean));
}

function appended(existing: string | string[] | undefined, value: string): string {
  const before = Array.isArray(existing) ? existing.join(', ') : existing;
  return before ? `${before}, ${value}` : value;
}
