import type { Role } from '../../../shared/rules/permissions';
import type { ApplicationStatus } from '../../../shared/rules/statuses';
import { paths } from '../../routing/paths';

/**
 * The step slug that means "wherever this application is to be continued": the wizard replaces it
 * with the first incomplete step once it has the application (spec: "the step in the route is the
 * first step whose required fields are missing"). The list has no journey data, so its links use it.
 */
export const RESUME_STEP = 'resume';

/** Statuses in which the journey can still be edited; later ones show the details screen. */
export const editableStatuses: readonly ApplicationStatus[] = ['incomplete', 'created'];

export function isEditableStatus(status: ApplicationStatus): boolean {
  return editableStatuses.includes(status);
}

/** Who fills the journey: the lawyer's wizard and the client's own form (spec section 2). */
export function wizardAudience(role: Role): 'lawyer' | 'customer' | null {
  return role === 'lawyer' ? 'lawyer' : role === 'customer' ? 'customer' : null;
}

/** Where an application of the list opens for this role. */
export function applicationHref(id: number | string, status: ApplicationStatus, role: Role): string {
  if (wizardAudience(role) && isEditableStatus(status)) return paths.applicationStep.url({ id, step: RESUME_STEP });
  return paths.applicationDetails.url({ id });
}

export function resumeHref(id: number | string): string {
  return paths.applicationStep.url({ id, step: RESUME_STEP });
}
