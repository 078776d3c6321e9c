import { Link } from 'react-router-dom';
import { PAGE_SIZE } from '../../../shared/rules/limits';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';
import { pageHref, usePageParam } from '../../ui/pagination';
import { AdminList, Overview, type AdminRow } from '../../admin-kit/admin-list';
import { useLoad, type Solicitor } from '../../admin-kit/calls';

function solicitorRow(solicitor: Solicitor): AdminRow {
  const { city, postcode } = solicitor.address;
  return {
    id: solicitor.id,
    href: paths.solicitor.url({ id: solicitor.id }),
    title: solicitor.name,
    detail: [city, postcode].filter(Boolean).join(', '),
    activeCases: solicitor.casesAmount,
  };
}

/** /solicitors (crudSolicitors): the registered count and those with active cases, the list. */
export default function SolicitorsPage() {
  const page = usePageParam();
  const { state, fetching, read } = useLoad(`solicitors?page=${page}`, () =>
    api.GET('/solicitors', { params: { query: { page, pageSize: PAGE_SIZE } } }),
  );
  const data = state.status === 'ready' ? state.data : null;
  return (
    <Page
      title="Solicitors"
      actions={
        <Link className="button button--primary" to={paths.addSolicitor.url()}>
          add new solicitor
        </Link>
      }
    >
      <Overview
        label="Overview"
        stats={[
          { label: 'Registered', value: data?.total },
          { label: 'With active cases', value: data?.withActiveCases },
        ]}
      />
      <AdminList
        label="Solicitors"
        noun={{ one: 'solicitor', other: 'solicitors' }}
        state={state}
        read={read}
        rows={data?.items.map(solicitorRow) ?? []}
        fetching={fetching}
        page={page}
        hrefFor={(next) => pageHref(paths.solicitors.url(), next)}
        empty="No solicitors yet."
      />
    </Page>
  );
}
