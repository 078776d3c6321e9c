import { api } from '../../../api/client';
import { callApi } from '../../../api/failure';

/** The signing page's calls (built-in provider: docs/decisions.md 286). Each needs a connection. */
export const esignApi = {
  session: (token: string) => callApi(() => api.GET('/esign/{token}', { params: { path: { token } } })),
  sendCode: (token: string) => callApi(() => api.POST('/esign/{token}/code', { params: { path: { token } } })),
  sign: (token: string, code: string) =>
    callApi(() => api.POST('/esign/{token}/sign', { params: { path: { token } }, body: { code, agree: true } })),
};
