// The order a store in the process keeps a list in (stub/order-index.ts): after any mix of adds
// and removes, a page from any rank and the rank of any id are what a plain array gives.
import { describe, expect, it } from 'vitest';
import { OrderIndex } from '../../src/stub/order-index.js';

describe('OrderIndex', () => {
  it('answers pages and ranks as an array does, through thousands of adds and removes and the packing they cause', () => {
    const index = new OrderIndex();
    const array: string[] = [];
    let seed = 7;
    const draw = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    for (let step = 0; step < 30_000; step++) {
      if (draw(10) < 6 || array.length === 0) {
        index.add(`id${step}`);
        array.push(`id${step}`);
      } else {
        const [gone] = array.splice(draw(array.length), 1);
        index.remove(gone);
      }
      if (step % 61 === 0) {
        const start = draw(array.length + 3);
        const limit = draw(25);
        expect(index.page(start, limit)).toEqual(array.slice(start, start + limit));
        const at = draw(array.length);
        expect(index.rankOf(array[at])).toBe(at);
      }
    }
    expect(index.size).toBe(array.length);
    expect([...index]).toEqual(array);
    expect(index.rankOf('never added')).toBeUndefined();
  });

  it('keeps an id added twice in its first place', () => {
    const index = new OrderIndex();
    for (const id of ['a', 'b', 'a', 'c']) index.add(id);
    expect(index.page(0, 10)).toEqual(['a', 'b', 'c']);
  });
});
