// Who may use /__admin without an admin token: requests addressed to this machine (one
// well-formed loopback Host, the absolute-form authority counted as the Host), and no state change
// from a page of another site, while curl and test code (no Origin) work as documented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { raw } from './helpers/raw-http.js';

let open: RunningStub;
let guarded: RunningStub;
beforeAll(async () => {
  [open, guarded] = await Promise.all([
    startStub({ port: 0, watch: false }),
    startStub({ port: 0, watch: false, adminToken: 'admin-secret' }),
  ]);
});
afterAll(() => Promise.all([open.close(), guarded.close()]));

const reload = (lines: string) => `POST /__admin/reload HTTP/1.1\r\n${lines}Content-Length: 0\r\nConnection: close\r\n\r\n`;
const list = (target: string, lines: string) => `GET ${target} HTTP/1.1\r\n${lines}Connection: close\r\n\r\n`;
const CROSS_SITE = 'the admin API takes no state change from a page of another site';
const NOT_HERE = 'the admin API answers only requests addressed to this machine (Host: localhost or 127.0.0.1)';
const ONE_HOST = 'the admin API needs exactly one well-formed Host header';

describe('/__admin without an admin token', () => {
  it.each([
    { name: 'a state change without Origin (curl, test code) is done', request: reload('Host: 127.0.0.1\r\n'), status: 200 },
    { name: 'a state change from a page on this machine (a dev server on localhost) is done', request: reload('Host: 127.0.0.1\r\nOrigin: http://localhost:5173\r\nSec-Fetch-Site: same-site\r\n'), status: 200 },
    { name: 'a state change from another site’s page is refused', request: reload('Host: 127.0.0.1\r\nOrigin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n'), status: 403, detail: CROSS_SITE },
    { name: 'a cross-site state change that hides its Origin is refused by Sec-Fetch-Site', request: reload('Host: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\n'), status: 403, detail: CROSS_SITE },
    { name: 'a read from another site’s page still needs a loopback Host, which it has: allowed, without CORS for it', request: list('/__admin/scenarios', 'Host: 127.0.0.1\r\nOrigin: https://evil.example\r\n'), status: 200 },
    { name: 'two Host headers are refused', request: list('/__admin/requests', 'Host: 127.0.0.1\r\nHost: evil.example\r\n'), status: 403, detail: ONE_HOST },
    { name: 'a Host that is not a host name is refused', request: list('/__admin/requests', 'Host: evil.example@127.0.0.1\r\n'), status: 403, detail: ONE_HOST },
    { name: 'an absolute-form target naming another host is refused, whatever the Host line says', request: list('http://evil.example/__admin/requests', 'Host: 127.0.0.1\r\n'), status: 403, detail: NOT_HERE },
    { name: 'an HTTP/1.0 request without Host comes from this machine', request: 'GET /__admin/scenarios HTTP/1.0\r\n\r\n', status: 200 },
  ])('$name', async ({ request, status, detail }) => {
    const answer = await raw(open.port, request);
    expect(answer.status).toBe(status);
    if (detail) expect(JSON.parse(answer.body)).toMatchObject({ status, detail });
  });
});

describe('/__admin with an admin token', () => {
  it('takes a state change from any origin that presents the token (a browser cannot attach it cross-site)', async () => {
    const answer = await raw(guarded.port, reload('Host: 127.0.0.1\r\nOrigin: https://dashboard.example\r\nAuthorization: Bearer admin-secret\r\n'));
    expect(answer.status).toBe(200);
  });

  it('refuses the same request without the token', async () => {
    const answer = await raw(guarded.port, reload('Host: 127.0.0.1\r\nOrigin: https://dashboard.example\r\n'));
    expect(answer.status).toBe(401);
  });
});
