import { api } from '../../api/client';
import { ApiResponseError, unwrap } from '../../api/failure';
import type { components } from '../../../shared/api/schema';
import { listApiQuery } from '../../ui/list-query';
import type { ListQuery } from './list/list-query';

export type ApplicationList = components['schemas']['ApplicationList'];
export type Application = components['schemas']['Application'];

export async function fetchApplications(query: ListQuery): Promise<ApplicationList> {
  return unwrap(
    await api.GET('/applications', {
      // Each item says whether its journey may still be changed (wizard or details).
      params: { query: { ...listApiQuery(query), abilities: true } },
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
