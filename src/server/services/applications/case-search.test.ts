import { describe, expect, it } from 'vitest';
import { indexedRunOf } from './case-search';

describe('the part of a search word the trigram indexes are asked for', () => {
  it('is the longest run of letters and digits of a word of several runs', () => {
    expect(indexedRunOf('ben-0123')).toBe('0123');
    expect(indexedRunOf('mary-jane')).toBe('mary');
    expect(indexedRunOf('hv-2026-0100')).toBe('2026');
    expect(indexedRunOf('zoë-ørsted')).toBe('ørsted');
  });

  it('is none for a word of one run: the word itself is looked up', () => {
    expect(indexedRunOf('shah')).toBeUndefined();
    expect(indexedRunOf('ben0123')).toBeUndefined();
    expect(indexedRunOf('-shah-')).toBeUndefined();
  });

  it('is none when no run has a trigram', () => {
    expect(indexedRunOf('a-b')).toBeUndefined();
    expect(indexedRunOf('50%')).toBeUndefined();
    expect(indexedRunOf('ab-12')).toBeUndefined();
  });
});
