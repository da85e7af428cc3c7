// Form bodies over HTTP: application/x-www-form-urlencoded and multipart/form-data are read into
// objects and validated against their schemas, text coerced like query parameters, arrays from
// repeated fields, JSON parts parsed, allowReserved: false enforced on urlencoded values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const TICKET = `
              type: object
              required: [id, status]
              properties:
                id: { type: integer, minimum: 100 }
                status: { type: string, enum: [open, closed] }
                tags: { type: array, items: { type: string, maxLength: 5 } }
                meta: { type: object, required: [source], properties: { source: { type: string } } }
                note: { type: string }
                attachment: { type: string, format: binary, maxLength: 10 }`;

const SPEC = `
openapi: 3.0.3
info: { title: Forms, version: 1.0.0 }
paths:
  /tickets:
    post:
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:${TICKET}
            encoding:
              note: { allowReserved: false }
          multipart/form-data:
            schema:${TICKET}
      responses: { '204': { description: created } }
`;

const URLENCODED = { 'content-type': 'application/x-www-form-urlencoded' };
const BOUNDARY = 'form-boundary-7';
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

/** A multipart body: each field a part; a field given as [filename, content] is a file part. */
function multipart(fields: Array<[string, string | [string, string]]>): string {
  const parts = fields.map(([name, value]) =>
    typeof value === 'string'
      ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
      : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${value[0]}"\r\nContent-Type: text/plain\r\n\r\n${value[1]}\r\n`,
  );
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

describe('form bodies are read and validated against their schemas', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStubOn(SPEC);
  });
  afterAll(() => stub.close());

  it.each([
    ['a valid urlencoded form passes, text coerced to integers', URLENCODED, 'id=101&status=open&tags=a&tags=b&note=hello%2Fworld', 204, null],
    ['an urlencoded JSON object field is parsed', URLENCODED, `id=101&status=open&meta=${encodeURIComponent('{"source":"web"}')}`, 204, null],
    ['an urlencoded form is checked field by field, every violation at once', URLENCODED, 'id=99&status=pending&tags=toolong', 400,
      ['/id: must be >= 100', '/status: must be one of "open", "closed"', '/tags/0: must NOT have more than 5 characters']],
    ['a missing required field is named', URLENCODED, 'status=open', 400, ['/id: is required']],
    ['a field that is not a number is refused', URLENCODED, 'id=abc&status=open', 400, ['/id: must be an integer']],
    ['a JSON field that is not JSON is refused', URLENCODED, 'id=101&status=open&meta=web', 400, ['/meta: must be JSON text']],
    ['reserved characters sent raw where allowReserved is false are refused', URLENCODED, 'id=101&status=open&note=a/b', 400,
      ['/note: reserved characters must be percent-encoded (allowReserved is false)']],
    ['a valid multipart form passes, files included', MULTIPART, multipart([['id', '150'], ['status', 'closed'], ['tags', 'x'], ['attachment', ['a.txt', 'tiny']]]), 204, null],
    ['a multipart form is checked field by field', MULTIPART, multipart([['id', '1'], ['status', 'open'], ['attachment', ['big.txt', 'far more than ten']]]), 400,
      ['/id: must be >= 100', '/attachment: must NOT have more than 10 characters']],
    ['a multipart JSON part is parsed and checked', MULTIPART, multipart([['id', '150'], ['status', 'open'], ['meta', '{"origin":"web"}']]), 400, ['/meta/source: is required']],
    ['a multipart body that does not end is refused', MULTIPART, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="id"\r\n\r\n150`, 400, ['/: the multipart body cannot be read: Unexpected end of multipart data']],
  ])('%s', async (_name, headers, body, status, violations) => {
    const response = await request(`${stub.url}/tickets`, { method: 'POST', headers, body: Buffer.from(body) });
    expect(response.status).toBe(status);
    if (violations === null) {
      expect(response.text).toBe('');
      expect(response.headers.get('x-mock-scenario')).not.toBeNull();
    } else {
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.json).toMatchObject({ status, violations });
    }
  });

  it('journals a multipart request with its body as sent', async () => {
    stub.reset();
    const body = multipart([['id', '150'], ['status', 'open']]);
    await request(`${stub.url}/tickets`, { method: 'POST', headers: MULTIPART, body: Buffer.from(body) });
    const [entry] = stub.requests({ path: '/tickets' });
    expect(entry).toMatchObject({ status: 204, body });
    expect(Object.keys(entry)).not.toContain('multipart');
  });

  it('refuses a multipart body without a boundary', async () => {
    const response = await request(`${stub.url}/tickets`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: Buffer.from('id=1') });
    expect(response.status).toBe(400);
    expect(response.json.violations).toEqual(['/: the multipart body cannot be read: Multipart: Boundary not found']);
  });
});
