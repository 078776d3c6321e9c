import { PAGE_SIZE } from '../../../shared/rules/limits';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';
import { pageHref, usePageParam } from '../../ui/pagination';
import { AdminList, fullName, Overview, type AdminRow } from '../../admin-kit/admin-list';
import { useLoad, type Client } from '../../admin-kit/calls';
import { clientCaseText } from './client-case';

function clientRow(client: Client): AdminRow {
  return {
    id: client.id,
    href: paths.client.url({ id: client.id }),
    title: fullName(client.firstName, client.lastName),
    detail: client.email,
    activeCases: client.activeCases,
    cases: clientCaseText(client),
  };
}

/**
 * /clients (crudClients): registered clients and those with active cases, the list. The server
 * derives clients from the applications the caller reaches (docs/decisions.md, 133).
 */
export default function ClientsPage() {
  const page = usePageParam();
  const { state, fetching, read } = useLoad(`clients?page=${page}`, () =>
    api.GET('/clients', { params: { query: { page, pageSize: PAGE_SIZE } } }),
  );
  const data = state.status === 'ready' ? state.data : null;
  return (
    <Page title="All clients">
      <Overview
        label="Overview"
        stats={[
          { label: 'Registered clients', value: data?.total },
          { label: 'Clients with active cases', value: data?.withActiveCases },
        ]}
      />
      <AdminList
        label="Clients"
        noun={{ one: 'client', other: 'clients' }}
        state={state}
        read={read}
        rows={data?.items.map(clientRow) ?? []}
        fetching={fetching}
        page={page}
        hrefFor={(next) => pageHref(paths.clients.url(), next)}
        empty="No clients yet."
      />
    </Page>
  );
}
