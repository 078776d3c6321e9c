import { errorMessages } from '../../../../shared/rules/error-codes';
import { enqueue, readQueuedWrites } from '../../../offline/outbox';
import { paths } from '../../../routing/paths';
import { requestDraftKey } from '../offline/request-drawdown-mutation';
import { editDraftKey } from '../offline/update-drawdown-mutation';
import '../offline/loan-mutations';
import { emptyRequest, type DrawdownRequest, type RequestValues } from './request-values';

/** The confirmation asked before a request is sent (the spec lists one, without words). */
export const REQUEST_CONFIRMATION = 'Are you sure you want to request this drawdown?';
export const CHANGE_CONFIRMATION = 'Are you sure you want to change this drawdown request?';

/**
 * What the one drawdown request form writes: a new request on a loan, or the lawyer's change of a
 * requested drawdown (docs/decisions.md (418)). The form's typing, draft, checks and refusals are
 * the same for both; these are the parts that differ.
 */
export interface RequestTarget {
  /** Where the device keeps the draft. */
  draftKey: string;
  /** The form's values when the device keeps no draft. */
  initial: RequestValues;
  heading: string;
  submitLabel: string;
  confirmation: string;
  discardQuestion: string;
  /** The amounts of this target's writes still in the outbox (at most one: the form waits for it), each with whether the server asked it to wait (a 429: decision 554). */
  readWaiting: (userId: number) => Promise<{ amount: number; held: boolean }[]>;
  /** `online`: the server has not taken it yet (slow, or failing and tried again), though the device is online. */
  waitingText: (amount: string, held: boolean, online: boolean) => string;
  /** A kept draft the page takes no write of now; `reason` is the server's words when it was refused. */
  heldText: (amount: string | null, reason: string | null) => string;
  enqueue: (request: DrawdownRequest) => Promise<string>;
  /** The drawdown the server's answer is about (the page goes there). */
  drawdownOf: (body: unknown) => number | undefined;
  /** The drawdown to open once a waiting write went through while the form was open; else the form starts again empty. */
  openAfterSent?: number;
  /** Where 'cancel' goes, once the draft is discarded (a change has one; a new request keeps its draft). */
  cancelTo?: string;
  /**
   * Leaving with typed changes asks the spec's 'Changes will not be saved' question, and 'Yes' lets
   * them go: the change of a saved request is an edit form. A new request's draft is not asked
   * about: it stays on the loan page for later, as a draft typed in court must (decision 739).
   */
  asksBeforeLeaving: boolean;
}

/** A write the server asked to wait (429) whose wait is not over yet. */
function isHeld(heldUntil: number | null): boolean {
  return heldUntil !== null && heldUntil > Date.now();
}

export function newRequestTarget(loanId: number): RequestTarget {
  const key = requestDraftKey(loanId);
  return {
    draftKey: key,
    initial: emptyRequest(),
    heading: 'Request a drawdown',
    submitLabel: 'request drawdown',
    confirmation: REQUEST_CONFIRMATION,
    discardQuestion: 'Are you sure you want to discard this drawdown request?',
    readWaiting: async (userId) =>
      (await readQueuedWrites(userId, 'requestDrawdown'))
        .filter((write) => write.payload.loanId === loanId)
        .map((write) => ({ amount: write.payload.request.amount, held: isHeld(write.heldUntil) })),
    waitingText: (amount, held, online) =>
      held
        ? `Your request for ${amount} is not sent yet: ${errorMessages.tooManyAttempts} It is kept on this device and sent by itself once the wait is over.`
        : online
          ? `Your request for ${amount} is kept on this device until the server takes it. It is sent again by itself.`
          : `Your request for ${amount} is waiting for a connection. It will be sent once you are back online.`,
    heldText: (amount, reason) => {
      const what = amount ? `Your drawdown request for ${amount}` : 'Your drawdown request';
      const kept = 'It is kept on this device and comes back here once the loan takes requests again.';
      return reason ? `${what} was not sent: ${reason} ${kept}` : `${what} was not sent. ${kept}`;
    },
    enqueue: (request) => enqueue({ kind: 'requestDrawdown', loanId, request, draftKey: key }),
    drawdownOf: (body) => {
      const id = (body as { id?: unknown } | undefined)?.id;
      return typeof id === 'number' ? id : undefined;
    },
    asksBeforeLeaving: false,
  };
}

export function editRequestTarget(drawdownId: number, loanId: number, current: RequestValues): RequestTarget {
  const key = editDraftKey(drawdownId);
  return {
    draftKey: key,
    initial: current,
    heading: 'Your request',
    submitLabel: 'Save',
    confirmation: CHANGE_CONFIRMATION,
    discardQuestion: 'Are you sure you want to discard these changes?',
    readWaiting: async (userId) =>
      (await readQueuedWrites(userId, 'updateDrawdown'))
        .filter((write) => write.payload.drawdownId === drawdownId)
        .map((write) => ({ amount: write.payload.request.amount, held: isHeld(write.heldUntil) })),
    waitingText: (amount, held, online) =>
      held
        ? `Your changes to this request (${amount}) are not sent yet: ${errorMessages.tooManyAttempts} They are kept on this device and sent by themselves once the wait is over.`
        : online
          ? `Your changes to this request (${amount}) are kept on this device until the server takes them. They are sent again by themselves.`
          : `Your changes to this request (${amount}) are waiting for a connection. They will be sent once you are back online.`,
    heldText: (amount, reason) => {
      const what = amount ? `Your changes to this request (${amount})` : 'Your changes to this request';
      const kept = 'They are kept on this device until you discard them.';
      return reason ? `${what} were not sent: ${reason} ${kept}` : `${what} were not sent. ${kept}`;
    },
    enqueue: (request) => enqueue({ kind: 'updateDrawdown', drawdownId, loanId, request, draftKey: key }),
    drawdownOf: () => drawdownId,
    openAfterSent: drawdownId,
    cancelTo: paths.drawdown.url({ id: drawdownId }),
    asksBeforeLeaving: true,
  };
}
