import { useCallback, useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { errorMessages } from '../../../../shared/rules/error-codes';
import { formatDateTime } from '../../../../shared/rules/formats';
import { poundsLess } from '../../../../shared/rules/money';
import { parseRecordId } from '../../../../shared/rules/record-id';
import { drawdownStatusLabels } from '../../../../shared/rules/statuses';
import type { Role } from '../../../../shared/rules/permissions';
import { drawdownRequestRoles } from '../../../../shared/rules/transitions';
import { useOnline } from '../../../api/connection';
import { ApiResponseError } from '../../../api/failure';
import { useCachedQuery } from '../../../offline/cache';
import NotFoundPage from '../../../routing/not-found-page';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import { Page } from '../../../ui/page';
import '../../../ui/notice.css';
import { PageSpinner } from '../../../ui/spinner';
import { fetchDrawdownRecord, type Drawdown } from '../loans-api';
import { DrawdownRequestForm } from './drawdown-request-form';
import { editRequestTarget } from './request-target';
import { fromWire, type DrawdownRequest } from './request-values';
import '../loans.css';

const TITLE = 'Edit Drawdown Request';

function isNotFound(error: unknown): boolean {
  return error instanceof ApiResponseError && (error.status === 404 || error.status === 403);
}

/** Why a drawdown's request cannot be changed now (the record's `edit` ability is false). */
function whyNotEditable(drawdown: Drawdown, role: Role): string {
  if (drawdown.status !== 'requested')
    return `This request can no longer be changed: it is ${drawdownStatusLabels[drawdown.status]}.`;
  if (!drawdownRequestRoles.includes(role)) return 'Only the lawyer who requested this drawdown can change it.';
  return 'This request cannot be changed while its loan is not open.';
}

/** The request as the server holds it, as the form's values start. */
function requestOf(drawdown: Drawdown): DrawdownRequest {
  return {
    applicationId: drawdown.applicationId,
    amount: drawdown.amount,
    invoiceNumber: drawdown.invoiceNumber,
    stageOfCase: drawdown.stageOfCase,
    materialChanges: drawdown.materialChanges,
    ...(drawdown.materialChangesDetails ? { materialChangesDetails: drawdown.materialChangesDetails } : {}),
    nextHearingDate: drawdown.nextHearingDate,
    finalOrderDate: drawdown.finalOrderDate,
    reaplyAssets: drawdown.reaplyAssets,
    expectedRepaymentDate: drawdown.expectedRepaymentDate,
    ...(drawdown.clientExpectedRepaymentDate ? { clientExpectedRepaymentDate: drawdown.clientExpectedRepaymentDate } : {}),
    lawyerDeclarations: drawdown.lawyerDeclarations,
  };
}

/**
 * /drawdowns/:id/edit: the lawyer changes a drawdown they requested, while it is still requested,
 * in the request's own form (docs/decisions.md (418)): filled with the request as the server holds
 * it, checked against the credit the request may use (what is left plus its own amount), kept on
 * the device as it is typed and sent through the outbox. Saved, the page goes to the drawdown.
 * Opened offline, the saved copy of the drawdown (the drawdown page's) is the start.
 */
export default function EditRequestPage() {
  const user = useAtomValue(sessionUserAtom);
  const online = useOnline();
  const { id: param } = useParams();
  const id = parseRecordId(param);
  const fetcher = useCallback(() => fetchDrawdownRecord(id ?? 0), [id]);
  const { data: drawdown, error, fromCache, savedAt, reload } = useCachedQuery(id === null ? null : `drawdown:${id}`, fetcher);
  const target = useMemo(
    () => (drawdown ? editRequestTarget(drawdown.id, drawdown.loanId, fromWire(requestOf(drawdown))) : null),
    // The form starts from the request as first loaded; a later read changes the figures only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [drawdown?.id],
  );

  if (id === null || (!drawdown && isNotFound(error))) return <NotFoundPage />;
  if (!user) return null;
  if (!drawdown || !target) {
    return (
      <Page title={TITLE}>
        {error ? <p className="list-note">{online ? errorMessages.unhandled : errorMessages.offline}</p> : <PageSpinner />}
      </Page>
    );
  }
  const editable = (drawdown as Partial<Drawdown>).abilities?.edit === true;
  // What is left of the credit, and the request's own amount, which the change replaces.
  const creditAvailable = poundsLess(drawdown.loanAmount, poundsLess(drawdown.totalDrawdownsAmount, drawdown.amount));

  return (
    <Page title={TITLE}>
      <p className="list-note" role="status">
        {fromCache && savedAt ? `Saved copy from ${formatDateTime(savedAt)}` : ''}
      </p>
      <p className="loan-client">
        {drawdown.firstName} {drawdown.lastName}
        {drawdown.caseRef ? <span className="loan-client__case"> · {drawdown.caseRef}</span> : null} ·{' '}
        <Link to={paths.drawdown.url({ id: drawdown.id })}>Drawdown {drawdown.id}</Link>
      </p>
      {editable ? null : (
        <p className="notice loan-notice" role="status">
          {whyNotEditable(drawdown, user.role)}
        </p>
      )}
      <DrawdownRequestForm
        target={target}
        applicationId={drawdown.applicationId}
        creditAvailable={creditAvailable}
        held={!editable}
        onRefused={reload}
      />
    </Page>
  );
}
