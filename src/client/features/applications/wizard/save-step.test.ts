// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppStore } from '../../../session/session';
import { db } from '../../../offline/db';
import { newLocalApplicationId } from '../offline/application-ids';
import { startSync } from '../../../offline/sync-engine';
import { fakeServer, jsonResponse, resetOffline, signedInStore } from '../../../test/offline-test-support';
import { saveStep } from './save-step';

let store: AppStore;
let stop: () => void;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => stop?.());

describe('saveStep', () => {
  it('the client details of a local application already created are saved, not created a second time', async () => {
    const server = fakeServer({
      'POST /applications/create': () => jsonResponse(201, { id: 99, journey: {}, journeyVersions: {} }),
      'POST /applications/update/personal': () => jsonResponse(200, { data: { personal: { firstName: 'Ada' } }, version: 2 }),
    });
    stop = startSync(store);
    const localId = newLocalApplicationId();
    // The create went through a moment ago; the screen is still on the local id.
    await db.idMap.put({ localId, userId: 1, serverId: 42 });
    const outcome = await saveStep({
      applicationId: localId,
      step: 'personal',
      baseVersion: 1,
      data: { firstName: 'Ada' },
      draftKey: `application:${localId}:personal`,
    });
    expect(outcome).toMatchObject({ status: 'done', version: 2 });
    expect(server.calls.map((call) => call.path)).toEqual(['/applications/update/personal']);
    expect(server.calls[0]!.body).toMatchObject({ applicationId: 42 });
  });
});
