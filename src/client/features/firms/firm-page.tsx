import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Collapsible } from '../../ui/collapsible';
import { hasActiveCasesMessages } from '../../../shared/rules/error-codes';
import { WhyNoDelete } from '../../admin-kit/why-no-delete';
import { formatMoney } from '../../../shared/rules/formats';
import { PAGE_SIZE } from '../../../shared/rules/limits';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { useLeaveConfirmation } from '../../routing/leave-confirmation';
import NotFoundPage from '../../routing/not-found-page';
import { Page } from '../../ui/page';
import { PageSpinner } from '../../ui/spinner';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useToast } from '../../ui/toast-store';
import { useKeptRecordForm } from '../../offline/kept-record-form';
import { keptFormKeys } from '../../admin-kit/kept-forms';
import { pageHref, usePageParam } from '../../ui/pagination';
import { AdminList, Overview } from '../../admin-kit/admin-list';
import { confirmMessages, doneMessages } from '../../admin-kit/admin-messages';
import { notFoundAnswer, recordId, useLoad, type Firm } from '../../admin-kit/calls';
import { useConfirmedAction } from '../../admin-kit/confirmed-action';
import { changedParts, useSaveForm } from '../../admin-kit/save-form';
import { ReadStatus, type ReadShown } from '../../offline/read-status';
import { lawyerRow } from '../../admin-kit/lawyer-row';
import { FirmFields, firmFields, firmFormSchema, type FirmValues } from './firm-form';
import './firms.css';

function firmValues(firm: Firm): FirmValues {
  return { firmName: firm.firmName, firstName: firm.firstName, surname: firm.surname, login: firm.login };
}

/**
 * /firms/:firmId: the collapsible 'Firm - details' form (edit, cancel, save, delete — staff only;
 * the firm's own admin reads it), the registered lawyers, the total loans offered, the firm's
 * lawyers with their active cases and 'add new lawyer'. A firm that is not the caller's is not found.
 */
export default function FirmPage() {
  const { firmId = '' } = useParams();
  const id = recordId(firmId);
  const firm = useLoad(`firm ${firmId}`, () =>
    id ? api.GET('/firms/{id}', { params: { path: { id } } }) : notFoundAnswer<Firm>(),
  );
  if (firm.state.status === 'notFound') return <NotFoundPage />;
  if (firm.state.status !== 'ready') {
    return (
      <Page title="Law firm">
        <ReadStatus read={firm.read} />
        {firm.state.status === 'loading' ? <PageSpinner /> : null}
      </Page>
    );
  }
  return <FirmScreen key={firmId} firm={firm.state.data} read={firm.read} />;
}

function FirmScreen({ firm: loaded, read }: { firm: Firm; read: ReadShown }) {
  const navigate = useNavigate();
  const toast = useToast();
  const page = usePageParam();
  const [firm, setFirm] = useState(loaded);
  // Read again (someone else changed it, decision 402): the page shows the new record.
  useEffect(() => setFirm(loaded), [loaded]);
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const form = useKeptRecordForm(firmFormSchema, firmValues(loaded), { draftKey: keptFormKeys.firm(loaded.id) });

  const { setInitialValues } = form;
  useEffect(() => {
    setInitialValues(firmValues(loaded));
  }, [loaded, setInitialValues]);

  const aggregate = useLoad(`firm ${firm.id} loans`, () =>
    api.GET('/firms/{id}/loans/aggregate', { params: { path: { id: firm.id } } }),
  );
  const lawyers = useLoad(`firm ${firm.id} lawyers ${page}`, () =>
    api.GET('/firms/{id}/lawyers', { params: { path: { id: firm.id }, query: { page, pageSize: PAGE_SIZE } } }),
  );

  const save = useSaveForm(form, {
    fields: firmFields,
    call: ({ firmName, firstName, surname }, changed) =>
      api.POST('/firms/update', {
        body: changedParts({ firmId: firm.id, firmName, firstName, surname }, changed, { keep: ['firmId'] }),
      }),
    setMessage,
    onSaved: (saved) => {
      setInitialValues(firmValues(saved));
      setFirm(saved);
      setEditing(false);
      toast.notify(doneMessages.firmSaved);
    },
  });

  const remove = useConfirmedAction({
    question: confirmMessages.deleteFirm,
    call: () => api.DELETE('/firms/{id}', { params: { path: { id: firm.id } } }),
    hasActiveCases: hasActiveCasesMessages.firm,
    setMessage,
    onDone: async () => {
      toast.notify(doneMessages.firmDeleted);
      await navigate(paths.firms.url());
    },
  });

  useLeaveConfirmation(form.dirty, save.busy || remove.busy, { keptOnDevice: form.keptOnDevice, onLeave: form.forget });

  // Typing kept from an earlier visit came back: the details open for editing, as they were left.
  useEffect(() => {
    if (!form.restored) return;
    setOpen(true);
    setEditing(true);
  }, [form.restored]);

  const cancel = () => {
    const saved = firmValues(firm);
    for (const name of firmFields) form.setValue(name, saved[name]);
    setMessage(null);
    setEditing(false);
  };

  const aggregateData = aggregate.state.status === 'ready' ? aggregate.state.data : null;
  const lawyersData = lawyers.state.status === 'ready' ? lawyers.state.data : null;

  return (
    <Page title="Law firm">
      <p className="admin-subtitle">{firm.firmName}</p>
      <ReadStatus read={read} />
      <Collapsible.Root className="admin-details card" open={open} onOpenChange={setOpen}>
        <h2 className="admin-details__heading">
          <Collapsible.Trigger className="admin-details__trigger">
            <span>Firm - details</span>
            <span className="admin-details__chevron" aria-hidden="true" />
          </Collapsible.Trigger>
        </h2>
        <Collapsible.Content className="admin-details__content">
          <form className="form admin-form" noValidate onSubmit={save.onSubmit}>
            <FirmFields form={form} loginReadOnly disabled={!editing} />
            {firm.abilities.edit || firm.abilities.delete ? (
              <div className="form__actions">
                {editing ? (
                  <>
                    <Button type="submit" busy={save.busy} disabled={!form.dirty}>
                      save
                    </Button>
                    <Button variant="secondary" onClick={cancel}>
                      cancel
                    </Button>
                  </>
                ) : (
                  <>
                    {firm.abilities.edit ? (
                      <Button variant="secondary" onClick={() => setEditing(true)}>
                        edit
                      </Button>
                    ) : null}
                    {firm.abilities.delete ? (
                      <Button variant="secondary" className="button--danger" busy={remove.busy} onClick={() => void remove.run()}>
                        delete
                      </Button>
                    ) : null}
                    <WhyNoDelete
                      abilities={firm.abilities}
                      casesAmount={firm.casesAmount}
                      message={hasActiveCasesMessages.firm}
                    />
                  </>
                )}
              </div>
            ) : null}
            <FormMessage message={message} />
          </form>
        </Collapsible.Content>
      </Collapsible.Root>
      <Overview
        label="Firm overview"
        stats={[
          { label: 'Registered lawyers', value: lawyersData?.total ?? firm.lawyersCount },
          {
            label: 'Total loans offered',
            value: aggregateData ? formatMoney(aggregateData.loansSum) : aggregate.state.status === 'loading' ? undefined : '–',
          },
        ]}
      >
        <Link className="button button--primary" to={paths.addFirmLawyer.url({ firmId: firm.id })}>
          add new lawyer
        </Link>
      </Overview>
      <h2 className="admin-section-title">Lawyers</h2>
      <AdminList
        label="Lawyers of the firm"
        noun={{ one: 'lawyer', other: 'lawyers' }}
        state={lawyers.state}
        read={lawyers.read}
        part
        rows={lawyersData?.items.map((lawyer) => lawyerRow(lawyer)) ?? []}
        fetching={lawyers.fetching}
        page={page}
        hrefFor={(next) => pageHref(paths.firm.url({ firmId: firm.id }), next)}
        empty="No lawyers registered yet."
      />
    </Page>
  );
}
