// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import { db, DB_NAME, fileRowSchema, readRow, registerLegacyOwnerField } from './db';

/** A file row as a store of version 1 kept it: the owner under a name of the feature's choosing. */
const legacyRow = {
  localId: 'upload-1',
  userId: 1,
  folderRef: 'local-1',
  type: 'scan',
  fileName: 'scan.pdf',
  size: 4,
  data: new Uint8Array([1, 2, 3, 4]).buffer,
  status: 'queued',
};

beforeEach(async () => {
  db.close();
  await Dexie.delete(DB_NAME);
  const previous = new Dexie(DB_NAME);
  previous.version(1).stores({ uploads: 'localId, userId, [userId+folderRef]', drafts: 'id, userId' });
  await previous.open();
  await previous.table('uploads').put(legacyRow);
  previous.close();
});

describe('a store written by an earlier version', () => {
  it('opens at the current schema, and a file whose owner field no feature has named yet is kept as it was', async () => {
    await db.open();
    const stored = (await db.uploads.get('upload-1')) as unknown as Record<string, unknown>;
    expect(stored).toMatchObject({ localId: 'upload-1', folderRef: 'local-1' });
    // Not readable as a file yet (no owner), never dropped.
    expect(readRow('uploads', fileRowSchema, stored)).toBeUndefined();
    expect(db.tables.map((table) => table.name).sort()).toEqual(
      ['cache', 'drafts', 'idMap', 'meta', 'outbox', 'results', 'uploads'].sort(),
    );
  });

  it('moves the owner once the feature that stored it names the field, even after the store opened', async () => {
    await db.open();
    registerLegacyOwnerField('folderRef');
    await expect
      .poll(async () => readRow('uploads', fileRowSchema, await db.uploads.get('upload-1')))
      .toMatchObject({ localId: 'upload-1', owner: 'local-1' });
    const stored = (await db.uploads.get('upload-1')) as unknown as Record<string, unknown>;
    expect(stored).not.toHaveProperty('folderRef');
    expect(new Uint8Array(stored.data as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(await db.uploads.where('[userId+owner]').equals([1, 'local-1']).count()).toBe(1);
  });
});
