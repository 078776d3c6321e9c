import { describe, expect, it } from 'vitest';
import { statusChangeOf, statusChangeSentence } from './status-change';

describe('the status change a refusal carries', () => {
  it('reads it from the details, and nothing from anything else', () => {
    const change = { status: 'submitted', at: '2026-11-25T14:05:00.000Z', by: 'client', name: 'Chris Walker' };
    expect(statusChangeOf({ statusChange: change })).toEqual(change);
    expect(statusChangeOf(undefined)).toBeNull();
    expect(statusChangeOf({ statusChange: { ...change, status: 'lost' } })).toBeNull();
    expect(statusChangeOf({ statusChange: { ...change, at: 'yesterday' } })).toBeNull();
  });

  it('says who did what and when, in UK time, to the lawyer and to the client', () => {
    const at = '2026-07-01T13:05:00.000Z'; // 14:05 in London (BST)
    expect(statusChangeSentence({ status: 'submitted', at, by: 'client', name: 'Chris Walker' }, 'lawyer')).toBe(
      'Chris Walker (your client) submitted this application on 01/07/2026 at 14:05.',
    );
    expect(statusChangeSentence({ status: 'submitted', at, by: 'lawyer', name: 'Laura Bennett' }, 'customer')).toBe(
      'Laura Bennett (your lawyer) submitted this application on 01/07/2026 at 14:05.',
    );
    expect(statusChangeSentence({ status: 'providerRejected', at, by: 'provider' }, 'lawyer')).toBe(
      'The provider rejected this application on 01/07/2026 at 14:05.',
    );
    expect(statusChangeSentence({ status: 'submitted', at, by: 'you' }, 'lawyer')).toBe(
      'You submitted this application on 01/07/2026 at 14:05.',
    );
    expect(statusChangeSentence({ status: 'customerRejected', at, by: 'client' }, 'lawyer')).toBe(
      'Your client withdrew this application on 01/07/2026 at 14:05.',
    );
  });
});
