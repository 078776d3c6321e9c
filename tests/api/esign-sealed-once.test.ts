import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceFileStorage, type FileStorage } from '../../src/server/files/storage';
import { envelopeDocumentsOf } from '../../src/server/services/esign/envelope-record';
import { recordSignedEnvelope } from '../../src/server/services/esign/record-signed-envelope';
import { buildUser, signInAs } from './factories';
import { smallPdf } from './files-helpers';
import { buildSigningCase, prepareAndNotify, signingCalls, type SigningCase } from './esign-fixtures';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
/** Every key the app stored, in order: a signed copy is stored once per sealing of a document. */
const stored: string[] = [];

/** The app's own storage, counting what is put into it. */
function countingStorage(inner: FileStorage): FileStorage {
  return {
    put: (key: string, source: Readable | Uint8Array) => {
      stored.push(key);
      return inner.put(key, source);
    },
    open: (key) => inner.open(key),
    remove: (key) => inner.remove(key),
    keys: () => inner.keys(),
    inventory: () => inner.inventory(),
    discard: (name) => inner.discard(name),
  };
}

beforeAll(async () => {
  server = await startTestServer();
  replaceFileStorage(server.config, server.db, countingStorage(server.storage()));
  admin = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
});
afterAll(() => server?.close());

async function readyToSign(): Promise<{ c: SigningCase; token: string; code: string; documents: number }> {
  const c = await buildSigningCase(server);
  await prepareAndNotify(server, c.applicationId, admin);
  const calls = signingCalls(server);
  const token = await calls.openSigning(c);
  expect((await calls.sendCode(c, token)).statusCode).toBe(200);
  const [{ n }] = (await server.rows<{ n: number }>(
    sql`select count(*)::int as n from envelope_documents d join envelopes e on e.id = d.envelope_id where e.application_id = ${c.applicationId}`,
  )) as [{ n: number }];
  return { c, token, code: await calls.lastCode(c), documents: n };
}

const signedCopies = (c: SigningCase) =>
  server.rows<{ key: string }>(
    sql`select key from files where application_id = ${c.applicationId} and name like '%(signed)' order by id`,
  );

// docs/decisions.md 577: a repeated signing call waits for the first one's result instead of sealing again.
describe('parallel calls to sign one envelope', () => {
  it('seal the documents once, and every caller gets the same answer', async () => {
    const { c, token, code, documents } = await readyToSign();
    expect(documents).toBeGreaterThan(0);
    stored.length = 0;
    const answers = await Promise.all(Array.from({ length: 4 }, () => signingCalls(server).sign(c, token, code)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const first = answers[0]!.json();
    expect(first).toMatchObject({ applicationId: c.applicationId, status: 'customerAccepted' });
    for (const answer of answers) expect(answer.json()).toEqual(first);

    // One sealing: one stored copy per document, and those are the copies recorded.
    const copies = await signedCopies(c);
    expect(copies).toHaveLength(documents);
    expect(stored).toEqual(copies.map((copy) => copy.key));
    const loans = await server.rows<{ id: number }>(sql`select id from loans where application_id = ${c.applicationId}`);
    expect(loans).toEqual([{ id: first.loanId }]);

    // Asked again afterwards: the same answer, nothing sealed.
    const again = await signingCalls(server).sign(c, token, code);
    expect(again.json()).toEqual(first);
    expect(stored).toHaveLength(documents);
  });

  it('a wrong code among them is refused on its own and does not share the sealing', async () => {
    const { c, token, code, documents } = await readyToSign();
    stored.length = 0;
    const wrong = code === '000000' ? '111111' : '000000';
    const [a, refused, b] = await Promise.all([
      signingCalls(server).sign(c, token, code),
      signingCalls(server).sign(c, token, wrong),
      signingCalls(server).sign(c, token, code),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(refused.statusCode).toBe(400);
    expect(stored).toHaveLength(documents);
  });

  // What stands across processes, which share no memory: each has sealed its own copies, and the
  // envelope's row lock lets one record them. Checked here at the service, as the calls above no
  // longer reach it twice.
  it('copies sealed by two processes: the database records one set and one loan, and both answer alike', async () => {
    const { c } = await readyToSign();
    const [envelope] = await server.rows<{ id: string; client_user_id: number }>(
      sql`select e.id, c.user_id as client_user_id from envelopes e join applications a on a.id = e.application_id
          join clients c on c.id = a.client_id where e.application_id = ${c.applicationId}`,
    );
    const documents = await envelopeDocumentsOf(server.db, envelope!.id);
    const record = async (text: string) => {
      const pdf = new Uint8Array(await smallPdf(text));
      return recordSignedEnvelope(
        { db: server.db, config: server.config, storage: server.storage(), logError: () => undefined },
        {
          envelopeId: envelope!.id,
          documents,
          copies: documents.map(() => ({ pdf, level: null, timestampPending: false })),
          signer: { userId: envelope!.client_user_id, address: '192.0.2.1', device: null, signedAt: new Date() },
          actor: null,
        },
      );
    };
    const before = new Set(await server.storage().keys());
    const [a, b] = await Promise.all([record('first process'), record('second process')]);
    expect([a.recorded, b.recorded].sort()).toEqual([false, true]);
    expect(b.result).toEqual(a.result);
    const copies = await signedCopies(c);
    expect(copies).toHaveLength(documents.length);
    // The other process's copies are removed: only the recorded ones were added to the store.
    const added = (await server.storage().keys()).filter((key) => !before.has(key));
    expect(added.sort()).toEqual(copies.map((copy) => copy.key).sort());
    const loans = await server.rows<{ id: number }>(sql`select id from loans where application_id = ${c.applicationId}`);
    expect(loans).toEqual([{ id: a.result.loanId }]);
  });
});
