import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { PAGE_SIZE } from '../../../shared/rules/limits';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';
import { sessionUserAtom } from '../../session/session';
import { pageHref, usePageParam } from '../../ui/pagination';
import { AdminList, Overview } from '../../admin-kit/admin-list';
import { useLoad } from '../../admin-kit/calls';
import { lawyerRow } from '../../admin-kit/lawyer-row';

/**
 * /lawyers (crudLawyer): the total on the hub and those with active cases, the list. The server
 * scopes both to the caller (a firm admin sees their own firm's lawyers). 'add new lawyer' goes to
 * /firms/{firmId}/add when the firm is known (a firm admin's), else to /lawyers/add.
 */
export default function LawyersPage() {
  const user = useAtomValue(sessionUserAtom);
  const page = usePageParam();
  const count = useLoad('lawyers count', () => api.GET('/lawyers/count', {}));
  const list = useLoad(`lawyers?page=${page}`, () => api.GET('/lawyers', { params: { query: { page, pageSize: PAGE_SIZE } } }));
  const counts = count.state.status === 'ready' ? count.state.data : null;
  const data = list.state.status === 'ready' ? list.state.data : null;
  const addHref = user?.role === 'firm' && user.firmId ? paths.addFirmLawyer.url({ firmId: user.firmId }) : paths.addLawyer.url();
  return (
    <Page
      title="Lawyers"
      actions={
        <Link className="button button--primary" to={addHref}>
          add new lawyer
        </Link>
      }
    >
      <Overview
        label="Overview"
        stats={[
          { label: 'Total on hub', value: counts?.total },
          { label: 'With active cases', value: counts?.withActiveCases },
        ]}
      />
      <AdminList
        label="Lawyers"
        noun={{ one: 'lawyer', other: 'lawyers' }}
        state={list.state}
        read={list.read}
        rows={data?.items.map((lawyer) => lawyerRow(lawyer, true)) ?? []}
        fetching={list.fetching}
        page={page}
        hrefFor={(next) => pageHref(paths.lawyers.url(), next)}
        empty="No lawyers yet."
      />
    </Page>
  );
}
