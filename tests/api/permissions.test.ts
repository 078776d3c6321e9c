import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_PATH } from '../../src/server/app';
import { loadOperations } from '../../src/server/contract/operations';
import { hasPermissions, roles, type Role } from '../../src/shared/rules/permissions';
import { buildClient, buildFirmAdmin, buildLawyer, buildUser, signInAs, type BuiltUser } from './factories';
import { startTestServer, type TestServer } from './harness';

/**
 * The permission table, call by call: every role against every guarded operation of the
 * contract. A role that may not make a call gets 403; one that may is never stopped with
 * 401 or 403 (it may still get 400 or 404: ids here point at no record, so nothing changes).
 */
const operations = loadOperations(CONTRACT_PATH).filter((op) => !op.public);
const MISSING_ID = '999999';

let server: TestServer;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server;
  const lawyer = await buildLawyer(db);
  const accounts: Record<Role, BuiltUser> = {
    root: await buildUser(db, { role: 'root' }),
    admin: await buildUser(db, { role: 'admin' }),
    firm: await buildFirmAdmin(db, { firmId: lawyer.firmId }),
    lawyer,
    customer: await buildClient(db),
  };
  for (const role of roles) tokens[role] = await signInAs(server, accounts[role]);
});
afterAll(async () => {
  await server.close();
});

function allowed(role: Role, op: (typeof operations)[number]): boolean {
  if (role === 'root') return true;
  return (op.roles.length === 0 || op.roles.includes(role)) && hasPermissions(role, op.permissions);
}

function request(op: (typeof operations)[number]) {
  const url = op.url.replace(/:[A-Za-z]+/g, (param) =>
    param === ':step' ? 'personal' : param === ':type' ? 'formE' : MISSING_ID,
  );
  const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
  return { method: op.method, url, ...(body ? { payload: body } : {}) };
}

describe('every guarded call needs a session', () => {
  it.each(operations.map((op) => [op.operationId, op] as const))('%s answers 401 without a token', async (_id, op) => {
    const res = await server.call(request(op));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized' });
  });
});

describe.each(roles)('as %s', (role) => {
  const cases = operations.filter((op) => op.operationId !== 'signOut').map((op) => [op.operationId, op] as const);
  it.each(cases)('%s', async (_id, op) => {
    const res = await server.call({ ...request(op), token: tokens[role] });
    if (allowed(role, op)) expect([401, 403], `${role} ${op.method} ${op.path}: ${res.body}`).not.toContain(res.statusCode);
    else {
      expect(res.statusCode, `${role} ${op.method} ${op.path}`).toBe(403);
      expect(res.json()).toEqual({ error: 'forbidden' });
    }
  });
});

it('the table holds the spec’s rules for the staff-only and role-only calls', () => {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const must = (id: string) => {
    const op = byId.get(id);
    if (!op) throw new Error(`${id} is missing from the contract`);
    return op;
  };
  expect(roles.filter((r) => allowed(r, must('createApplication')))).toEqual(['root', 'lawyer']);
  expect(roles.filter((r) => allowed(r, must('listApplications')))).toEqual(['root', 'admin', 'firm', 'lawyer', 'customer']);
});
