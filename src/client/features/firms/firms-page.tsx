import { Link } from 'react-router-dom';
import { PAGE_SIZE } from '../../../shared/rules/limits';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';
import { pageHref, usePageParam } from '../../ui/pagination';
import { AdminList, Overview, type AdminRow } from '../../admin-kit/admin-list';
import { useLoad, type Firm } from '../../admin-kit/calls';

function firmRow(firm: Firm): AdminRow {
  return {
    id: firm.id,
    href: paths.firm.url({ firmId: firm.id }),
    title: firm.firmName,
    detail: `${firm.lawyersCount} ${firm.lawyersCount === 1 ? 'lawyer' : 'lawyers'}`,
    activeCases: firm.casesAmount,
  };
}

/** /firms (crudFirm): the overview (registered firms, total lawyers), the list, 'add new firm'. */
export default function FirmsPage() {
  const page = usePageParam();
  const { state, fetching, read } = useLoad(`firms?page=${page}`, () =>
    api.GET('/firms', { params: { query: { page, pageSize: PAGE_SIZE } } }),
  );
  const data = state.status === 'ready' ? state.data : null;
  return (
    <Page
      title="Law firms"
      actions={
        <Link className="button button--primary" to={paths.addFirm.url()}>
          add new firm
        </Link>
      }
    >
      <Overview
        label="Overview"
        stats={[
          { label: 'Registered firms', value: data?.total },
          { label: 'Total lawyers', value: data?.lawyersCount },
        ]}
      >
        <Link className="button button--secondary" to={paths.lawyers.url()}>
          see lawyers
        </Link>
      </Overview>
      <AdminList
        label="Law firms"
        noun={{ one: 'law firm', other: 'law firms' }}
        state={state}
        read={read}
        rows={data?.items.map(firmRow) ?? []}
        fetching={fetching}
        page={page}
        hrefFor={(next) => pageHref(paths.firms.url(), next)}
        empty="No law firms yet."
      />
    </Page>
  );
}
