import { api } from '../../api/client';
import { unwrap } from '../../api/failure';
import type { components } from '../../../shared/api/schema';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { listApiQuery, type ListQuery } from '../../ui/list-query';

export type Drawdown = components['schemas']['Drawdown'];
export type DrawdownList = components['schemas']['DrawdownList'];
export type DrawdownListItem = components['schemas']['DrawdownListItem'];
export type DrawdownAggregate = components['schemas']['DrawdownAggregate'];

export async function fetchDrawdowns(query: ListQuery<DrawdownStatus>): Promise<DrawdownList> {
  return unwrap(
    await api.GET('/drawdowns', {
      params: { query: listApiQuery(query) },
    }),
  );
}

export async function fetchDrawdownsAggregate(): Promise<DrawdownAggregate> {
  return unwrap(await api.GET('/drawdowns/aggregate'));
}

export async function fetchDrawdown(id: number): Promise<Drawdown> {
  return unwrap(await api.GET('/drawdowns/{id}', { params: { path: { id } } }));
}
