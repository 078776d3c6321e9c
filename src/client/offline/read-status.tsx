import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { errorMessages } from '../../shared/rules/error-codes';
import { formatDateTime } from '../../shared/rules/formats';
import { useOnline } from '../api/connection';
import { defectAdvice, failureCause, failureMessage, readFailure } from '../api/failure';
import { brandAtom } from '../session/brand';
import { mutationsRegistered } from './mutation-registry';
import type { CachedQuery } from './cache';
import './read-status.css';

/**
 * What a list or record page says about the data it shows when it is not a fresh answer of the
 * server (decision 400): the device is offline, or the portal is not answering, or a real defect;
 * the saved copy's time when one is shown; and the requests waiting on this device that this page
 * will show once they are sent (decision 404). Nothing while the page shows a fresh answer online.
 */

export const OFFLINE_COPY_TEXT =
  'You are offline. This is the copy saved on this device; it is brought up to date once you are back online.';
export const OFFLINE_NO_COPY_TEXT =
  'You are offline, and this page has not been opened on this device before. It opens once you are back online.';
export const UNAVAILABLE_COPY_TEXT =
  'The portal is not answering just now. This is the copy saved on this device; it is brought up to date as soon as the portal answers.';
export const UNAVAILABLE_NO_COPY_TEXT = 'The portal is not answering just now. This page opens as soon as it answers.';
export { WAITING_TITLE } from './waiting-for-page-text';

export type ReadShown = Pick<CachedQuery<unknown>, 'data' | 'savedAt' | 'fromCache' | 'error'>;

type Notice = { tone: 'offline' | 'unavailable'; text: string } | { tone: 'defect'; text: string; advice: string | null } | null;

function useNotice({ data, error }: ReadShown): Notice {
  const online = useOnline();
  const brand = useAtomValue(brandAtom);
  const failure = error === undefined ? null : readFailure(error);
  const cause = failure ? failureCause(failure) : null;
  const shown = data !== undefined;
  if (!online || cause === 'offline') return { tone: 'offline', text: shown ? OFFLINE_COPY_TEXT : OFFLINE_NO_COPY_TEXT };
  if (cause === 'unavailable') return { tone: 'unavailable', text: shown ? UNAVAILABLE_COPY_TEXT : UNAVAILABLE_NO_COPY_TEXT };
  if (!failure) return null;
  const text = failureMessage(failure);
  return { tone: 'defect', text, advice: text === errorMessages.unhandled ? defectAdvice(brand) : null };
}

/**
 * The user's writes waiting for this page, read only while the page is not a fresh answer
 * (decision 385's reads). Its code (the outbox, Dexie) is loaded only then, once every feature's
 * writes are registered, so a list's first paint does not wait for it (docs/decisions.md (630)).
 */
const WaitingForPage = lazy(() => mutationsRegistered().then(() => import('./waiting-for-page')));

export function ReadStatus({ read }: { read: ReadShown }) {
  const notice = useNotice(read);
  // Offline, even an answer read before the connection went is this device's copy now.
  const saved =
    notice && read.data !== undefined && read.savedAt !== undefined ? `Saved copy from ${formatDateTime(read.savedAt)}` : null;
  return (
    <div className={`read-status${notice ? ` read-status--${notice.tone}` : ''}`} role="status">
      {notice ? (
        <>
          <p className="read-status__text">{notice.text}</p>
          {notice.tone === 'defect' && notice.advice ? <p className="read-status__advice">{notice.advice}</p> : null}
          {saved ? <p className="read-status__saved">{saved}</p> : null}
          <Suspense fallback={null}>
            <WaitingForPage />
          </Suspense>
        </>
      ) : null}
    </div>
  );
}

/**
 * One line for a part of a page read on its own (a record's list of drawdowns, its emails): the
 * page's own ReadStatus says offline and shows the waiting requests; this says only why the part
 * is missing when it has nothing to show.
 */
export function readPartMessage({ data, error }: Pick<ReadShown, 'data' | 'error'>, online: boolean): string | null {
  if (data !== undefined || error === undefined) return null;
  const failure = readFailure(error);
  const cause = failureCause(failure);
  if (!online || cause === 'offline') return 'Not saved on this device yet: shown once you are back online.';
  return failureMessage(failure);
}
