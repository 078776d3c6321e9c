import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { isStaff } from '../../../../shared/rules/permissions';
import { parseRecordId } from '../../../../shared/rules/record-id';
import { useCachedQuery } from '../../../offline/cache';
import { ReadStatus } from '../../../offline/read-status';
import NotFoundPage from '../../../routing/not-found-page';
import { sessionUserAtom } from '../../../session/session';
import { Page } from '../../../ui/page';
import { PageSpinner } from '../../../ui/spinner';
import { fetchApplication, isNotFound } from '../applications-api';
import { MemberView } from './member-view';
import { StaffView } from './staff-view';
import '../wizard/step-form.css';
import './details.css';

const TITLE = 'Application details';

/**
 * /applications/:id/details (readApplication): staff's review screen, or the lawyer's and the
 * client's shortened screen. Opened offline, the saved copy (shared with the wizard's) is shown
 * with its time; staff's decisions made on it wait on the device and are sent once back online.
 */
export default function ApplicationDetailsPage() {
  const user = useAtomValue(sessionUserAtom);
  const { id: param } = useParams();
  const id = parseRecordId(param);
  const fetcher = useCallback(() => fetchApplication(id ?? 0), [id]);
  const read = useCachedQuery(id === null ? null : `application:${id}`, fetcher);
  const { data: application, error, fromCache, reload } = read;

  if (id === null || (!application && isNotFound(error))) return <NotFoundPage />;
  if (!user) return null;
  if (!application) {
    return <Page title={TITLE}>{error ? <ReadStatus read={read} /> : <PageSpinner />}</Page>;
  }
  return (
    <Page title={TITLE}>
      <ReadStatus read={read} />
      {isStaff(user.role) ? (
        <StaffView application={application} offlineCopy={fromCache} onChanged={reload} />
      ) : (
        <MemberView application={application} />
      )}
    </Page>
  );
}
