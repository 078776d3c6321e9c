import { formatApplicationId } from '../../shared/rules/formats';
import { loanReference } from '../../shared/rules/loan-reference';
import type { NotificationKind } from '../../shared/rules/notification-kinds';

/**
 * What a notification is about: the records it names and links to. A lock screen shows the text,
 * so it names records by the portal's own references only (application A-000012, loan LFAMA00003,
 * drawdown 7): never a person's name, a case reference, an amount or a date (docs/decisions.md 682).
 */
export type PushSubject =
  | {
      kind: 'documents-ready' | 'application-submitted' | 'application-accepted' | 'application-rejected';
      applicationId: number;
    }
  | { kind: 'loan-created'; applicationId: number; loanId: number }
  | {
      kind: 'drawdown-awaits-client' | 'drawdown-requested' | 'drawdown-client-approved' | 'drawdown-approved' | 'drawdown-paid';
      applicationId: number;
      loanId: number;
      drawdownId: number;
    }
  | { kind: 'drawdown-rejected'; applicationId: number; loanId: number; drawdownId: number; by: 'provider' | 'client' };

/** One short sentence and the page where its reader acts: every notification's words, in one place. */
export function pushMessage(subject: PushSubject): { kind: NotificationKind; text: string; link: string } {
  const application = `application ${formatApplicationId(subject.applicationId)}`;
  const details = `/applications/${subject.applicationId}/details`;
  switch (subject.kind) {
    case 'documents-ready':
      return {
        kind: subject.kind,
        text: `The documents of your ${application} are ready to sign.`,
        link: `/applications/${subject.applicationId}/application-esign-prepared`,
      };
    case 'application-submitted':
      return { kind: subject.kind, text: `The ${application} was submitted and waits for your review.`, link: details };
    case 'application-accepted':
      return { kind: subject.kind, text: `The provider accepted your client’s ${application}.`, link: details };
    case 'application-rejected':
      return { kind: subject.kind, text: `The provider rejected your client’s ${application}.`, link: details };
    case 'loan-created':
      return {
        kind: subject.kind,
        text: `Your client signed: loan ${loanReference(subject.loanId)} was created for ${application}.`,
        link: `/loans/${subject.loanId}`,
      };
  }
  const drawdown = `drawdown ${subject.drawdownId} on loan ${loanReference(subject.loanId)}`;
  const link = `/drawdowns/${subject.drawdownId}`;
  switch (subject.kind) {
    case 'drawdown-awaits-client':
      return { kind: subject.kind, text: `The provider approved ${drawdown}: it awaits your approval.`, link };
    case 'drawdown-requested':
      return { kind: subject.kind, text: `A lawyer requested ${drawdown}: it waits for your review.`, link };
    case 'drawdown-client-approved':
      return { kind: subject.kind, text: `The client approved ${drawdown}: it is ready to be paid.`, link };
    case 'drawdown-approved':
      return { kind: subject.kind, text: `The provider approved ${drawdown}: it now awaits your client’s approval.`, link };
    case 'drawdown-rejected':
      return {
        kind: subject.kind,
        text: subject.by === 'client' ? `Your client rejected ${drawdown}.` : `The provider rejected ${drawdown}.`,
        link,
      };
    case 'drawdown-paid':
      return { kind: subject.kind, text: `The provider paid ${drawdown}.`, link };
  }
}
