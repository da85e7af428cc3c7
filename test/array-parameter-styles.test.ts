// Array parameters in each documented style (comma-separated path, explode:false and exploded
// query, pipeDelimited), each item checked.
import { describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { keys, startKeysStub } from './helpers/keys-document.js';

startKeysStub();

describe('array parameters', () => {
  it.each([
    ['arrays in each documented style are accepted', '/search/1,2?only=3,4&tag=a&tag=b&sep=5|6', 200, undefined],
    ['a comma-separated path array is checked item by item', '/search/1,x', 400, ['/path/ids/1: must be an integer']],
    ['an explode:false query array is split on commas', '/search/1?only=3,10', 400, ['/query/only/1: must be <= 9']],
    ['an exploded query array is read from repeated keys', '/search/1?tag=a&tag=c', 400, ['/query/tag/1: must be one of "a", "b"']],
    ['a pipeDelimited array is split on pipes', '/search/1?sep=5|x', 400, ['/query/sep/1: must be an integer']],
  ])('%s', async (_name, path, status, violations) => {
    const response = await request(keys.stub.url + path);
    expect(response.status).toBe(status);
    if (violations) expect(response.json.violations).toEqual(violations);
    else expect(response.json).toEqual({ found: true });
  });
});
