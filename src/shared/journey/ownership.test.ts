import { describe, expect, it } from 'vitest';
import { answersField, mayAnswerStep, withOtherPartyAnswers, withoutOtherPartyAnswers } from './ownership';

describe('who answers what', () => {
  it('keeps the client confirmation for the client', () => {
    expect(mayAnswerStep('client', 'customer')).toBe(true);
    expect(mayAnswerStep('client', 'lawyer')).toBe(false);
    expect(mayAnswerStep('independent', 'customer')).toBe(true);
  });

  it('keeps consent and authority for the lawyer', () => {
    expect(answersField('independent', 'consent', 'lawyer')).toBe(true);
    expect(answersField('independent', 'consent', 'customer')).toBe(false);
    expect(answersField('independent', 'authorised', 'customer')).toBe(false);
    expect(answersField('independent', 'solicitorId', 'customer')).toBe(true);
  });

  it("carries the lawyer's ticks over a client's save, and refuses a change to them", () => {
    const stored = { solicitorId: 2, consent: true, authorised: true };
    expect(withOtherPartyAnswers('independent', 'customer', { solicitorId: 3 }, stored)).toEqual({
      data: { solicitorId: 3, consent: true, authorised: true },
      refused: [],
    });
    expect(
      withOtherPartyAnswers('independent', 'customer', { solicitorId: 3, consent: true, authorised: true }, stored).refused,
    ).toEqual([]);
    expect(withOtherPartyAnswers('independent', 'customer', { solicitorId: 3, consent: false }, stored).refused).toEqual([
      'consent',
    ]);
  });

  it('never lets the client tick boxes the lawyer has not', () => {
    expect(
      withOtherPartyAnswers('independent', 'customer', { solicitorId: 3, consent: true, authorised: true }, { solicitorId: 2 }),
    ).toEqual({
      data: { solicitorId: 3 },
      refused: ['consent', 'authorised'],
    });
    // An unticked box is no answer: the client's form may send it as it always did.
    expect(
      withOtherPartyAnswers('independent', 'customer', { solicitorId: 3, consent: false, authorised: false }, undefined),
    ).toEqual({
      data: { solicitorId: 3 },
      refused: [],
    });
  });

  it("leaves the lawyer's own save as it is", () => {
    expect(withOtherPartyAnswers('independent', 'lawyer', { solicitorId: 3, consent: true }, { consent: false })).toEqual({
      data: { solicitorId: 3, consent: true },
      refused: [],
    });
  });

  it("sends a client's form without the lawyer's answers", () => {
    expect(
      withoutOtherPartyAnswers('independent', 'customer', { useOwnSolicitor: true, consent: true, authorised: false }),
    ).toEqual({ useOwnSolicitor: true });
    expect(withoutOtherPartyAnswers('independent', 'lawyer', { useOwnSolicitor: true, consent: true })).toEqual({
      useOwnSolicitor: true,
      consent: true,
    });
  });
});
