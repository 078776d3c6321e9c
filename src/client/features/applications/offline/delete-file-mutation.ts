import * as v from 'valibot';
import { api } from '../../../api/client';
import { FILES_SCOPE } from './application-ids';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';

const payload = v.object({ fileKey: v.string() });
export type DeleteFilePayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    deleteFile: DeleteFilePayload;
  }
}

export const deleteFileMutation = registerMutation({
  kind: 'deleteFile',
  payload,
  // Files go one after another (they share the connection, and a delete follows its upload).
  scope: () => FILES_SCOPE,
  send: async ({ fileKey }) => {
    // The contract lists no Idempotency-Key here: deleting twice is harmless (404 counts as done).
    const result = await api.POST('/applications/file/delete', { body: { fileKey } });
    if (result.response.status === 404) return { type: 'done', body: undefined };
    return outcomeOf(result);
  },
});
