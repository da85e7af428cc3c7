// RouteTable on its own: literal paths before templates, path parameters decoded, 405 with the
// Allow list (HEAD with GET), 404, bad percent-encoding, and lookups that do not scan every route.
import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../src/openapi/route-table.js';

describe('RouteTable', () => {
  const table = new RouteTable<string>();
  table.add('POST', '/plants', 'create');
  table.add('GET', '/plants/{id}', 'read');
  table.add('DELETE', '/plants/{id}', 'delete');
  table.add('GET', '/plants/mine', 'mine');
  table.add('GET', '/files/{name}.{ext}', 'file');

  it.each([
    ['POST', '/plants', { kind: 'operation', operation: 'create', pathParams: {} }],
    ['GET', '/plants/42', { kind: 'operation', operation: 'read', pathParams: { id: '42' } }],
    ['GET', '/plants/mine', { kind: 'operation', operation: 'mine', pathParams: {} }],
    ['GET', '/plants/a%20b', { kind: 'operation', operation: 'read', pathParams: { id: 'a b' } }],
    ['HEAD', '/plants/1', { kind: 'operation', operation: 'read', pathParams: { id: '1' } }],
    ['GET', '/files/report.pdf', { kind: 'operation', operation: 'file', pathParams: { name: 'report', ext: 'pdf' } }],
    ['GET', '/plants', { kind: 'method-not-allowed', allow: ['POST'] }],
    ['PUT', '/plants/1', { kind: 'method-not-allowed', allow: ['DELETE', 'GET', 'HEAD'] }],
    ['POST', '/plants/', { kind: 'not-found' }],
    ['POST', '/trees', { kind: 'not-found' }],
    ['GET', '/plants/%zz', { kind: 'bad-path', reason: 'the path holds an invalid percent-encoding' }],
  ])('matches %s %s', (method, path, expected) => {
    expect(table.match(method, path)).toEqual(expected);
  });

  it('finds an operation among thousands without scanning them', () => {
    const big = new RouteTable<number>();
    for (let i = 0; i < 5000; i++) big.add('GET', `/r${i}/{id}`, i);
    expect(big.match('GET', '/r4999/7')).toEqual({ kind: 'operation', operation: 4999, pathParams: { id: '7' } });
  });
});
