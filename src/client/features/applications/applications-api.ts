import { api } from '../../api/client';
import { ApiResponseError, unwrap } from '../../api/failure';
import { PAGE_SIZE } from '../../../shared/rules/limits';
import type { components } from '../../../shared/api/schema';
import type { ListQuery } from './list/list-query';

export type ApplicationList = components['schemas']['ApplicationList'];
export type Application = components['schemas']['Application'];

export async function fetchApplications(query: ListQuery): Promise<ApplicationList> {
  return unwrap(
    await api.GET('/applications', {
      params: {
        query: {
          page: query.page,
          pageSize: PAGE_SIZE,
          // Each item says whether its journey may still be changed (wizard or details).
          abilities: true,
          ...(query.search ? { search: query.search } : {}),
          ...(query.status ? { status: query.status } : {}),
        },
      },
    }),
  );
}

export async function fetchApplication(id: number): Promise<Application> {
  return unwrap(await api.GET('/applications/{id}', { params: { path: { id } } }));
}

/** The server answered 404 (or 403: out of scope reads the same to the user). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiResponseError && (error.status === 404 || error.status === 403);
}
