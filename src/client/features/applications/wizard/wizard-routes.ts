import type { Role } from '../../../../shared/rules/permissions';
import type { ApplicationStatus } from '../../../../shared/rules/statuses';
import { isEditableStatus } from '../../../../shared/rules/transitions';
import { wizardAudience } from '../../../../shared/journey/audience';
import { paths } from '../../../routing/paths';
import type { components } from '../../../../shared/api/schema';

/**
 * The step slug that means "wherever this application is to be continued": the wizard replaces it
 * with the first incomplete step once it has the application (spec: "the step in the route is the
 * first step whose required fields are missing"). The list has no journey data, so its links use it.
 */
export const RESUME_STEP = 'resume';

export { wizardAudience };

type Abilities = components['schemas']['ApplicationAbilities'];

/**
 * Whether the caller may still change the journey: the server's word (`abilities`, on the record
 * and on each list item). A copy saved on the device before the server sent abilities has only its
 * status: the shared rule answers for it, and the server still refuses a save it does not allow.
 */
export function journeyEditable(record: { status: ApplicationStatus; abilities?: Abilities }): boolean {
  return record.abilities?.editJourney ?? isEditableStatus(record.status);
}

/** Where an application of the list opens for this role: the wizard while its journey may be changed, else its details. */
export function applicationHref(
  record: { id: number | string; status: ApplicationStatus; abilities?: Abilities },
  role: Role,
): string {
  if (wizardAudience(role) && journeyEditable(record)) return paths.applicationStep.url({ id: record.id, step: RESUME_STEP });
  return paths.applicationDetails.url({ id: record.id });
}

export function resumeHref(id: number | string): string {
  return paths.applicationStep.url({ id, step: RESUME_STEP });
}
