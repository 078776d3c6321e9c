import { useState, type ReactNode } from 'react';
import { formatApplicationId, formatDate, formatMoney, shortName } from '../../../../shared/rules/formats';
import { StatusBadge } from '../../../ui/status-badge';
import { Button } from '../../../ui/button';
import { useToast } from '../../../ui/toast-store';
import type { Application } from '../applications-api';
import { openApplicationPdf } from './application-pdf';

/**
 * The loan amount the application shows: its loan's facility once signing created it (what the
 * client signed for, and a raise waiting for their signature), the draft figure before
 * (docs/decisions.md, 513). A saved copy from before facilities were sent has only the draft.
 */
export function loanAmountFigures(application: Application): [string, ReactNode][] {
  const facility = (application as Partial<Application>).loanFacility ?? null;
  if (facility === null) return application.loanAmount === null ? [] : [['Loan amount', formatMoney(application.loanAmount)]];
  return [
    ['Loan amount', formatMoney(facility.amount)],
    ...(facility.pendingAmount === null
      ? []
      : ([['Pending variation', `${formatMoney(facility.pendingAmount)}, waiting for the client’s signature`]] as [
          string,
          ReactNode,
        ][])),
  ];
}

/** The application's key figures: client, formatted id, case reference, status, date, loan amount. */
export function KeyFigures({ application }: { application: Application }) {
  const caseRef = (application.journey.case as { caseRef?: string } | undefined)?.caseRef;
  const figures: [string, ReactNode][] = [
    ['Client', shortName(application.name, application.surname)],
    ['Application', formatApplicationId(application.id)],
    ...(caseRef ? ([['Case reference', caseRef]] as [string, ReactNode][]) : []),
    ['Status', <StatusBadge key="status" kind="application" status={application.status} recordStatus />],
    ['Date', formatDate(application.startDate)],
    ...loanAmountFigures(application),
  ];
  return (
    <dl className="details-figures">
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt className="details-figures__label">{label}</dt>
          <dd className="details-figures__value">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** 'Download PDF': the application PDF (the existing call), opened in a new window. */
export function PdfButton({ applicationId, disabled }: { applicationId: number; disabled?: boolean }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await openApplicationPdf(applicationId);
    } catch {
      toast.unhandled();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" busy={busy} disabled={disabled} onClick={() => void run()}>
      Download PDF
    </Button>
  );
}
