import { useCallback, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import type { components } from '../../../../shared/api/schema';
import { formatDate } from '../../../../shared/rules/formats';
import { EMAILS_PAGE_SIZE, PAGE_LINKS, PAGE_MAX } from '../../../../shared/rules/limits';
import { api } from '../../../api/client';
import { callApi, unwrap } from '../../../api/failure';
import { useCachedQuery } from '../../../offline/cache';
import { readPartMessage } from '../../../offline/read-status';
import { useOnline } from '../../../api/connection';
import { Button } from '../../../ui/button';
import { Pagination } from '../../../ui/pagination';
import { useToast } from '../../../ui/toast-store';
import { download } from './download';

type SentEmail = components['schemas']['SentEmail'];

/** Who an email went to, in words (decision 303). */
export const recipientLabels: Record<SentEmail['userType'], string> = {
  admin: 'Provider',
  firm: 'Law firm',
  lawyer: 'Lawyer',
  customer: 'Client',
};

/** The emails' page in the address (?emails=N), so the page's own links and back work. */
const EMAILS_PARAM = 'emails';

function useEmailsPage(): number {
  const [params] = useSearchParams();
  const page = Number(params.get(EMAILS_PARAM));
  return Number.isInteger(page) && page >= 1 && page <= PAGE_MAX ? page : 1;
}

/**
 * 'Application Emails' (staff): the emails sent about the application, 3 per page with 5 page links,
 * each saved as a PDF through GET /pdf-generator/from-email (a short-lived download link).
 */
export function ApplicationEmails({ applicationId, caseRef }: { applicationId: number; caseRef: string | undefined }) {
  const toast = useToast();
  const location = useLocation();
  const page = useEmailsPage();
  const fetcher = useCallback(
    async () =>
      unwrap(
        await api.GET('/mail/{id}', {
          params: { path: { id: applicationId }, query: { page, pageSize: EMAILS_PAGE_SIZE } },
        }),
      ),
    [applicationId, page],
  );
  const read = useCachedQuery(`application:${applicationId}:emails?page=${page}`, fetcher);
  const { data } = read;
  const missing = readPartMessage(read, useOnline());
  const [busy, setBusy] = useState<number | null>(null);

  const pdf = async (email: SentEmail) => {
    if (busy !== null) return;
    setBusy(email.id);
    try {
      const outcome = await callApi(() =>
        api.GET('/pdf-generator/from-email', {
          params: {
            query: {
              applicationId,
              mailId: email.id,
              ...(caseRef ? { applicationCaseRef: caseRef } : {}),
              to: email.to,
              from: email.from,
              subject: email.subject,
              userType: email.userType,
              date: email.date.slice(0, 10),
            },
          },
        }),
      );
      if (outcome.ok && outcome.data?.url) download(outcome.data.url, outcome.data.fileName);
      else toast.unhandled();
    } finally {
      setBusy(null);
    }
  };

  const pageCount = data ? Math.max(1, Math.ceil(data.total / (data.pageSize || EMAILS_PAGE_SIZE))) : 0;
  const hrefFor = (next: number) => {
    const params = new URLSearchParams(location.search);
    if (next > 1) params.set(EMAILS_PARAM, String(next));
    else params.delete(EMAILS_PARAM);
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ''}`;
  };

  return (
    <section className="details-section" aria-labelledby="details-emails-title">
      <h2 id="details-emails-title" className="details-section__title">
        Application Emails
      </h2>
      {missing ? <p className="details-empty">{missing}</p> : null}
      {data && data.items.length === 0 ? <p className="details-empty">No emails yet.</p> : null}
      {data && data.items.length > 0 ? (
        <ul className="details-emails">
          {data.items.map((email) => (
            <li key={email.id} className="details-email">
              <span className="details-email__subject">{email.subject}</span>
              <span className="details-email__meta">
                {formatDate(email.date)} · {recipientLabels[email.userType]} · {email.to}
              </span>
              <Button
                variant="secondary"
                busy={busy === email.id}
                aria-label={`download PDF of ${email.subject}`}
                onClick={() => void pdf(email)}
              >
                download PDF
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {data ? (
        <Pagination label="Pages of emails" page={page} pageCount={pageCount} hrefFor={hrefFor} links={PAGE_LINKS} />
      ) : null}
    </section>
  );
}
