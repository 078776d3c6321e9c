import { emailPdfLink } from '../services/mail/email-pdf-link';
import { getApplicationEmail } from '../services/mail/get-application-email';
import { listApplicationEmails } from '../services/mail/list-application-emails';
import { serviceContext, type Handlers } from './handler';

/** The emails sent about an application (staff): the list, one email, one email as a PDF. */
export const mailHandlers: Handlers = {
  listApplicationEmails: async (request, _reply, ctx) =>
    listApplicationEmails(serviceContext(request, ctx), {
      applicationId: request.params.id,
      page: request.query.page,
      pageSize: request.query.pageSize,
    }),

  getApplicationEmail: async (request, _reply, ctx) =>
    getApplicationEmail(serviceContext(request, ctx), { applicationId: request.params.id, mailId: request.params.mailId }),

  createEmailPdf: async (request, _reply, ctx) =>
    emailPdfLink(serviceContext(request, ctx), { applicationId: request.query.applicationId, mailId: request.query.mailId }),
};
