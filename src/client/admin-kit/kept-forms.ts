import { paths } from '../routing/paths';
import { registerDraftPlace } from '../offline/attention';
import { draftKey } from '../offline/draft-keys';

/*
 * The administration's forms whose typing is kept on the device (offline/kept-record-form.ts): the
 * one place their keys are named, and where each is seen on the list of what waits on this device
 * (offline/attention.ts), with a link back to its form.
 */

export const keptFormKeys = {
  addFirm: () => draftKey('firm-add'),
  firm: (firmId: number) => draftKey('firm-edit', firmId),
  /** A firm's 'add new lawyer' and the lawyers' list's 'Add lawyer' are kept apart. */
  addLawyer: (firmId: number | null) => draftKey('lawyer-add', firmId ?? 'any'),
  lawyer: (lawyerId: number) => draftKey('lawyer-edit', lawyerId),
  addSolicitor: () => draftKey('solicitor-add'),
  solicitor: (solicitorId: number) => draftKey('solicitor-edit', solicitorId),
  client: (clientId: number) => draftKey('client-edit', clientId),
};

const withId = (id: string | undefined, place: (id: string) => { label: string; href: string }) => (id ? place(id) : null);

registerDraftPlace('firm-add', () => ({ label: 'New law firm', href: paths.addFirm.url() }));
registerDraftPlace('firm-edit', ([firmId]) =>
  withId(firmId, (id) => ({ label: `Law firm ${id}: details`, href: paths.firm.url({ firmId: id }) })),
);
registerDraftPlace('lawyer-add', ([firmId]) => ({
  label: 'New lawyer',
  href: firmId && firmId !== 'any' ? paths.addFirmLawyer.url({ firmId }) : paths.addLawyer.url(),
}));
registerDraftPlace('lawyer-edit', ([lawyerId]) =>
  withId(lawyerId, (id) => ({ label: `Lawyer ${id}`, href: paths.lawyer.url({ id }) })),
);
registerDraftPlace('solicitor-add', () => ({ label: 'New solicitor', href: paths.addSolicitor.url() }));
registerDraftPlace('solicitor-edit', ([solicitorId]) =>
  withId(solicitorId, (id) => ({ label: `Solicitor ${id}`, href: paths.solicitor.url({ id }) })),
);
registerDraftPlace('client-edit', ([clientId]) =>
  withId(clientId, (id) => ({ label: `Client ${id}`, href: paths.client.url({ id }) })),
);
