import { describe, expect, it } from 'vitest';
import { sameAnswer } from './live';

describe('sameAnswer: a live query woken by a write that changed nothing keeps its answer', () => {
  it('compares primitives, arrays and plain objects by content, deeply', () => {
    expect(sameAnswer(3, 3)).toBe(true);
    expect(sameAnswer(Number.NaN, Number.NaN)).toBe(true);
    expect(sameAnswer(undefined, undefined)).toBe(true);
    expect(sameAnswer({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameAnswer([], [])).toBe(true);
    expect(sameAnswer(Object.create(null) as object, {})).toBe(true);
  });

  it('sees every difference: a value, a missing key, a key set to undefined, a length, a type', () => {
    expect(sameAnswer({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameAnswer({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameAnswer({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameAnswer([1, 2], [1, 2, 3])).toBe(false);
    expect(sameAnswer([1], { 0: 1 })).toBe(false);
    expect(sameAnswer({ nested: { deep: [1, 2] } }, { nested: { deep: [1, 3] } })).toBe(false);
    expect(sameAnswer(0, '0')).toBe(false);
    expect(sameAnswer(null, {})).toBe(false);
  });

  it('compares anything else (dates, maps, bytes) only by identity, so a changed one is never missed', () => {
    const when = new Date(0);
    expect(sameAnswer(when, when)).toBe(true);
    expect(sameAnswer(new Date(0), new Date(0))).toBe(false);
    expect(sameAnswer(new Map([[1, 1]]), new Map([[1, 1]]))).toBe(false);
    expect(sameAnswer(new Uint8Array([1]), new Uint8Array([1]))).toBe(false);
  });
});
