import type { Role } from '../../../shared/rules/permissions';
import type { ApplicationStatus } from '../../../shared/rules/statuses';
import { isEditableStatus } from '../../../shared/rules/transitions';
import { wizardAudience } from '../../../shared/journey/audience';
import { paths } from '../../routing/paths';

/**
 * The step slug that means "wherever this application is to be continued": the wizard replaces it
 * with the first incomplete step once it has the application (spec: "the step in the route is the
 * first step whose required fields are missing"). The list has no journey data, so its links use it.
 */
export const RESUME_STEP = 'resume';

export { isEditableStatus, wizardAudience };

/** Where an application of the list opens for this role. */
export function applicationHref(id: number | string, status: ApplicationStatus, role: Role): string {
  if (wizardAudience(role) && isEditableStatus(status)) return paths.applicationStep.url({ id, step: RESUME_STEP });
  return paths.applicationDetails.url({ id });
}

export function resumeHref(id: number | string): string {
  return paths.applicationStep.url({ id, step: RESUME_STEP });
}
