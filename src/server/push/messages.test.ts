import { describe, expect, it } from 'vitest';
import { notificationKinds } from '../../shared/rules/notification-kinds';
import { pushMessage, type PushSubject } from './messages';

const record = { applicationId: 12, loanId: 3, drawdownId: 7 };
const subjects: PushSubject[] = [
  ...(['documents-ready', 'application-submitted', 'application-accepted', 'application-rejected'] as const).map((kind) => ({
    kind,
    applicationId: 12,
  })),
  { kind: 'loan-created', applicationId: 12, loanId: 3 },
  ...(
    ['drawdown-awaits-client', 'drawdown-requested', 'drawdown-client-approved', 'drawdown-approved', 'drawdown-paid'] as const
  ).map((kind) => ({ kind, ...record })),
  { kind: 'drawdown-rejected', by: 'provider', ...record },
  { kind: 'drawdown-rejected', by: 'client', ...record },
];

describe('the words of each notification (docs/decisions.md 682)', () => {
  it('has one for every kind', () => {
    expect(new Set(subjects.map((s) => pushMessage(s).kind))).toEqual(new Set(notificationKinds));
  });

  it.each(subjects.map((s) => [s.kind, s] as const))(
    '%s: one short sentence, portal references only, a portal link',
    (_kind, subject) => {
      const { text, link } = pushMessage(subject);
      expect(text).toMatch(/^[A-Z][^.]*\.$/);
      expect(text.length).toBeLessThanOrEqual(90);
      // Names the records by the portal's references, never an amount.
      expect(text).not.toMatch(/£|\d+\.\d\d/);
      expect(text).toMatch(/A-000012|LFAMA00003/);
      expect(link).toMatch(/^\/(applications\/12\/(details|application-esign-prepared)|loans\/3|drawdowns\/7)$/);
    },
  );
});
