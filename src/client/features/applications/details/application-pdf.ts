import { api } from '../../../api/client';

/**
 * Opens the application's PDF (made on the server; a short-lived link) in a new window. The window
 * is opened before the call: one opened after an await is taken for a pop-up and blocked. Throws
 * when it could not be made (the caller shows the unhandled-error toast).
 */
export async function openApplicationPdf(applicationId: number): Promise<void> {
  const target = window.open('', '_blank');
  try {
    const { data } = await api.GET('/pdf-generator/for-application-json/{id}', { params: { path: { id: applicationId } } });
    if (!data) throw new Error('no link');
    if (target) target.location.href = data.url;
    else window.location.assign(data.url);
  } catch (error) {
    target?.close();
    throw error;
  }
}
