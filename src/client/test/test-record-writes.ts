/**
 * Write kinds of the offline engine's own tests (not shipped: only *.test.ts files import it), so
 * the engine is tested without any feature: a record created on the device under a local id, the
 * versioned save of one of its parts, and a plain write. Their requests go to `/records/…` of the
 * fake server (offline-test-support.ts). Importing this module registers them.
 */
import * as v from 'valibot';
import { api } from '../api/client';
import { draftKey } from '../offline/draft-keys';
import { mapLocalId, newLocalId } from '../offline/local-ids';
import { registerMutation, type SendContext } from '../offline/mutation-registry';
import { enqueue } from '../offline/outbox';
import { outcomeOf, type SendOutcome } from '../offline/send-outcome';

const recordId = v.union([v.pipe(v.number(), v.integer()), v.string()]);
const savePayload = v.object({ recordId, part: v.string(), baseVersion: v.number(), data: v.unknown() });
const createPayload = v.object({ localId: v.string(), data: v.unknown() });
const notePayload = v.object({ name: v.string(), scope: v.optional(v.string()) });

declare module '../offline/mutation-registry' {
  interface MutationKinds {
    testSave: v.InferOutput<typeof savePayload>;
    testCreate: v.InferOutput<typeof createPayload>;
    testNote: v.InferOutput<typeof notePayload>;
  }
}

type AnyPost = (
  path: string,
  init: { body: unknown; headers: Record<string, string> },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Through the app's one API client (its bearer token, and a 401 ending the session), on a path outside the contract. */
async function post(path: string, body: unknown, ctx: Pick<SendContext, 'idempotencyKey'>): Promise<SendOutcome> {
  return outcomeOf(await (api.POST as unknown as AnyPost)(path, { body, headers: { 'Idempotency-Key': ctx.idempotencyKey } }));
}

/** A record's part saved on a version: `POST /records/save/<part>` with `{ recordId, baseVersion, data }`. */
registerMutation({
  kind: 'testSave',
  payload: savePayload,
  scope: ({ recordId }) => String(recordId),
  send: async (sent, ctx) => {
    const id = await ctx.resolveId(sent.recordId);
    const baseVersion = await ctx.ownVersion(`${id}:${sent.part}`, sent.baseVersion);
    return post(`/records/save/${sent.part}`, { recordId: id, baseVersion, data: sent.data }, ctx);
  },
  versionMade: (body) => {
    const version = (body as { version?: unknown } | undefined)?.version;
    return typeof version === 'number' ? version : undefined;
  },
  draftValue: ({ data, baseVersion }) => ({ value: data, baseVersion }),
});

/** A record created on the device: `POST /records/create` answers `{ id }`, which its local id then names. */
registerMutation({
  kind: 'testCreate',
  payload: createPayload,
  scope: ({ localId }) => localId,
  send: async ({ data }, ctx) => post('/records/create', { data }, ctx),
  onDone: async ({ localId }, body, { userId }) => {
    const serverId = (body as { id?: unknown } | undefined)?.id;
    if (typeof serverId === 'number') await mapLocalId(userId, localId, serverId);
  },
  draftValue: ({ data }) => ({ value: data, baseVersion: 0 }),
});

/** A write with no version: `POST /records/note` with `{ name }`; in no scope unless it names one. */
registerMutation({
  kind: 'testNote',
  payload: notePayload,
  scope: ({ scope }) => scope ?? null,
  send: async ({ name }, ctx) => post('/records/note', { name }, ctx),
});

/** A new record's id on the device until the server has created it. */
export function newLocalRecordId(): string {
  return newLocalId('local-');
}

/** The draft key of one part of a record. */
export function partDraftKey(id: number | string, part: string): string {
  return draftKey('test-record', id, part);
}

/** Queues the save of a record's part (on `baseVersion`, 0 unless given), with its draft if named. */
export function queueSave(
  id: number | string,
  part: string,
  data: unknown,
  options: { baseVersion?: number; draftKey?: string } = {},
): Promise<string> {
  const { baseVersion = 0, draftKey: key } = options;
  return enqueue({ kind: 'testSave', recordId: id, part, baseVersion, data, ...(key ? { draftKey: key } : {}) });
}
