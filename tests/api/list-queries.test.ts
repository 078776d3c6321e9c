import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness';
import {
  buildApplication,
  buildClient,
  buildDrawdown,
  buildFirmAdmin,
  buildLawyer,
  buildLoan,
  buildUser,
  signInAs,
} from './factories';
import { buildSide, type Side } from './loans-fixtures';

/**
 * How the lists read at scale (docs/decisions.md, 620–622): the lawyer kept on the loan and
 * drawdown rows follows the application's lawyer; a page and its total come together, right for
 * every filter, an empty list and a page past the end; a search word of one or two letters matches
 * the start of a name.
 */

let server: TestServer;
let admin: string;

const get = (url: string, token: string) => server.call({ method: 'GET', url, token });
const list = async (url: string, token: string) => {
  const res = await get(url, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: { id: number; name?: string; surname?: string }[];
    total: number;
    page: number;
    pageSize: number;
  };
};

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
});
afterAll(() => server.close());

describe('the lawyer kept on loans and drawdowns', () => {
  let side: Side;
  let other: Awaited<ReturnType<typeof buildLawyer>>;
  let otherToken: string;

  const keptLawyers = () =>
    server.rows<{ loan: number; drawdowns: number[] }>(sql`select l.lawyer_id as loan,
        array(select d.lawyer_id from drawdowns d where d.loan_id = l.id order by d.id) as drawdowns
      from loans l where l.id = ${side.loanId}`);

  beforeAll(async () => {
    side = await buildSide(server);
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 100 });
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 200, status: 'paid' });
    other = await buildLawyer(server.db);
    otherToken = await signInAs(server, other);
  });

  it('is the application’s lawyer from the insert on, whoever inserts', async () => {
    expect(await keptLawyers()).toEqual([{ loan: side.lawyer.id, drawdowns: [side.lawyer.id, side.lawyer.id] }]);
    // An insert naming another lawyer is corrected: the column is the database's, not the writer's.
    const application = await buildApplication(server.db, { lawyerId: side.lawyer.id, status: 'approved' });
    await server.rows(
      sql`insert into loans (application_id, amount_pence, lawyer_id) values (${application.id}, 100000, ${other.id})`,
    );
    const [row] = await server.rows<{ lawyer_id: number }>(
      sql`select lawyer_id from loans where application_id = ${application.id}`,
    );
    expect(row!.lawyer_id).toBe(side.lawyer.id);
    await server.rows(sql`update loans set lawyer_id = ${other.id} where application_id = ${application.id}`);
    const [again] = await server.rows<{ lawyer_id: number }>(
      sql`select lawyer_id from loans where application_id = ${application.id}`,
    );
    expect(again!.lawyer_id).toBe(side.lawyer.id);
  });

  it('follows the application’s lawyer when it changes: the loan and its drawdowns move to the new lawyer’s lists', async () => {
    const before = await list('/api/loans', side.tokens.lawyer);
    expect(before.items.map((loan) => loan.id)).toContain(side.loanId);
    expect((await list('/api/loans', otherToken)).total).toBe(0);

    await server.rows(sql`update applications set lawyer_id = ${other.id} where id = ${side.applicationId}`);
    expect(await keptLawyers()).toEqual([{ loan: other.id, drawdowns: [other.id, other.id] }]);

    const theirs = await list('/api/loans', otherToken);
    expect(theirs.items.map((loan) => loan.id)).toEqual([side.loanId]);
    expect(theirs.total).toBe(1);
    expect((await list('/api/loans', side.tokens.lawyer)).items.map((loan) => loan.id)).not.toContain(side.loanId);
    const drawdowns = await list('/api/drawdowns', otherToken);
    expect(drawdowns.total).toBe(2);
    expect(drawdowns.items).toHaveLength(2);
    expect((await list(`/api/drawdowns?loanId=${side.loanId}`, side.tokens.lawyer)).total).toBe(0);
    // The firm follows the lawyer too; staff's lawyer filter reads the same column.
    expect((await list('/api/loans', side.tokens.firm)).items.map((loan) => loan.id)).not.toContain(side.loanId);
    expect((await list(`/api/loans?lawyerId=${other.id}`, admin)).total).toBe(1);

    // And back: the rows follow again.
    await server.rows(sql`update applications set lawyer_id = ${side.lawyer.id} where id = ${side.applicationId}`);
    expect(await keptLawyers()).toEqual([{ loan: side.lawyer.id, drawdowns: [side.lawyer.id, side.lawyer.id] }]);
    expect((await list('/api/drawdowns', otherToken)).total).toBe(0);
  });
});

describe('a firm’s records', () => {
  it('are every one of its lawyers’ and no other firm’s, in each list and its total, and for staff’s firm filter', async () => {
    const firmAdmin = await buildFirmAdmin(server.db);
    const firmToken = await signInAs(server, firmAdmin);
    const [first, second, elsewhere] = [
      await buildLawyer(server.db, { firmId: firmAdmin.firmId }),
      await buildLawyer(server.db, { firmId: firmAdmin.firmId }),
      await buildLawyer(server.db),
    ];
    const caseOf = async (lawyerId: number) => {
      const application = await buildApplication(server.db, { lawyerId, status: 'approved' });
      const loan = await buildLoan(server.db, { applicationId: application.id });
      const drawdown = await buildDrawdown(server.db, { loanId: loan.id });
      return { application: application.id, loan: loan.id, drawdown: drawdown.id };
    };
    const ours = [await caseOf(first.id), await caseOf(second.id), await caseOf(second.id)];
    await caseOf(elsewhere.id);
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
    for (const [path, key] of [
      ['/api/applications', 'application'],
      ['/api/loans', 'loan'],
      ['/api/drawdowns', 'drawdown'],
    ] as const) {
      const expected = sorted(ours.map((c) => c[key]));
      // A page smaller than the list: the total is the whole firm's, not the page's.
      const firmPage = await list(`${path}?pageSize=2`, firmToken);
      expect(firmPage.total, path).toBe(3);
      const firmAll = await list(`${path}?pageSize=10`, firmToken);
      expect(sorted(firmAll.items.map((item) => item.id)), path).toEqual(expected);
      const filtered = await list(`${path}?pageSize=10&firmId=${firmAdmin.firmId}`, admin);
      expect(sorted(filtered.items.map((item) => item.id)), path).toEqual(expected);
      expect(filtered.total, path).toBe(3);
      // A firm that is not a record id is refused by name, on every list alike.
      for (const bad of ['abc', '0', '99999999999']) {
        const refused = await get(`${path}?firmId=${bad}`, admin);
        expect(refused.statusCode, `${path} ${bad}`).toBe(400);
        expect(refused.json(), `${path} ${bad}`).toEqual({ error: 'validation', fields: { firmId: 'invalid' } });
      }
    }
    // Staff's lawyer filter reads the same way on the drawdowns list as on the loans list.
    const secondsDrawdowns = await list(`/api/drawdowns?pageSize=10&lawyerId=${second.id}`, admin);
    expect(sorted(secondsDrawdowns.items.map((item) => item.id))).toEqual(sorted(ours.slice(1).map((c) => c.drawdown)));
  });
});

describe('a page and its total', () => {
  let lawyer: Awaited<ReturnType<typeof buildLawyer>>;
  let token: string;
  const started = Date.parse('2030-01-01T00:00:00Z');

  beforeAll(async () => {
    lawyer = await buildLawyer(server.db);
    token = await signInAs(server, lawyer);
    for (let i = 0; i < 12; i++) {
      const application = await buildApplication(server.db, {
        lawyerId: lawyer.id,
        status: i < 5 ? 'approved' : 'submitted',
        startedAt: new Date(started + i * 60_000),
      });
      if (i < 5) {
        const loan = await buildLoan(server.db, { applicationId: application.id });
        await buildDrawdown(server.db, { loanId: loan.id, status: i < 2 ? 'paid' : 'requested' });
      }
    }
  });

  it('pages a lawyer’s applications newest first, each page with the whole total, a page past the end included', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list(`/api/applications?pageSize=5&page=${page}`, token)));
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 2, 0]);
    expect(pages.map((p) => p.total)).toEqual([12, 12, 12, 12]);
    expect(new Set(pages.flatMap((p) => p.items.map((item) => item.id))).size).toBe(12);
    expect(pages[3]).toMatchObject({ page: 4, pageSize: 5 });
  });

  it('counts what each filter selects, and an empty first page is a total of 0', async () => {
    expect((await list('/api/applications?status=submitted&pageSize=3', token)).total).toBe(7);
    expect((await list('/api/applications?status=approved&pageSize=3&page=2', token)).items).toHaveLength(2);
    const none = await list('/api/applications?status=providerRejected', token);
    expect(none).toMatchObject({ items: [], total: 0, page: 1 });
    const loans = await list('/api/loans?pageSize=2&page=3', token);
    expect(loans.items).toHaveLength(1);
    expect(loans.total).toBe(5);
    expect((await list('/api/loans?pageSize=2&page=9', token)).total).toBe(5);
    expect((await list('/api/loans?status=closed', token)).total).toBe(0);
    expect((await list('/api/drawdowns?status=requested&pageSize=1&page=2', token)).total).toBe(3);
    expect((await list('/api/drawdowns?status=paid&page=5', token)).total).toBe(2);
    expect((await list(`/api/loans?lawyerId=${lawyer.id}&page=4&pageSize=2`, admin)).total).toBe(5);
  });

  it('gives staff the kept totals, on a page past the end too, as counting the rows does', async () => {
    const [counted] = await server.rows<{ apps: number; submitted: number; drawdowns: number }>(
      sql`select (select count(*)::int from applications) as apps,
            (select count(*)::int from applications where status = 'submitted') as submitted,
            (select count(*)::int from drawdowns) as drawdowns`,
    );
    expect((await list('/api/applications?pageSize=1', admin)).total).toBe(counted!.apps);
    expect(await list('/api/applications?status=submitted&page=999', admin)).toMatchObject({
      items: [],
      total: counted!.submitted,
    });
    expect((await list('/api/drawdowns?page=999', admin)).total).toBe(counted!.drawdowns);
  });
});

describe('a search word of one or two letters', () => {
  let lawyer: Awaited<ReturnType<typeof buildLawyer>>;
  let token: string;
  const names: [string, string][] = [
    ['Shona', 'Quill'],
    ['Bo', 'Shawcross'],
    ['Ashraf', 'Quill'],
    ['Bo', 'Quill'],
    ['Q%', 'Quill'],
  ];

  beforeAll(async () => {
    lawyer = await buildLawyer(server.db);
    token = await signInAs(server, lawyer);
    for (const [firstName, surname] of names) {
      const client = await buildClient(server.db, { firstName, surname });
      const application = await buildApplication(server.db, {
        lawyerId: lawyer.id,
        clientId: client.id,
        status: 'approved',
        steps: { case: { caseRef: `SH-${firstName}` } },
      });
      const loan = await buildLoan(server.db, { applicationId: application.id });
      await buildDrawdown(server.db, { loanId: loan.id });
    }
  });

  const whoFound = (page: { items: { name?: string; surname?: string }[] }) =>
    page.items.map((item) => `${item.name} ${item.surname}`).sort();

  it('matches the start of a first or last name, in any case, not the middle nor the case reference', async () => {
    const found = await list('/api/applications?search=sH', token);
    expect(whoFound(found)).toEqual(['Bo Shawcross', 'Shona Quill']);
    expect(found.total).toBe(2);
    expect(whoFound(await list('/api/applications?search=b', token))).toEqual(['Bo Quill', 'Bo Shawcross']);
  });

  it('combines with other words, each of which must match', async () => {
    expect(whoFound(await list('/api/applications?search=bo%20sh', token))).toEqual(['Bo Shawcross']);
    expect(whoFound(await list('/api/applications?search=quill%20a', token))).toEqual(['Ashraf Quill']);
    expect((await list('/api/applications?search=shona%20x', token)).total).toBe(0);
  });

  it('takes LIKE’s wildcards as text', async () => {
    expect(whoFound(await list('/api/applications?search=q%25', token))).toEqual(['Q% Quill']);
    expect((await list('/api/applications?search=_', token)).total).toBe(0);
  });

  it('finds the same cases in the loans and drawdowns lists, with their totals, for staff too', async () => {
    const loans = await list('/api/loans?search=sh&pageSize=1', token);
    expect(loans.total).toBe(2);
    expect(loans.items).toHaveLength(1);
    expect((await list('/api/drawdowns?search=sh', token)).total).toBe(2);
    const staff = await list(`/api/applications?search=sh&lawyerId=${lawyer.id}&page=2&pageSize=1`, admin);
    expect(staff).toMatchObject({ total: 2, page: 2 });
    expect(staff.items).toHaveLength(1);
  });
});

describe('the client’s names kept on the application, for the search', () => {
  let lawyer: Awaited<ReturnType<typeof buildLawyer>>;
  let token: string;
  let client: Awaited<ReturnType<typeof buildClient>>;
  let applicationId: number;
  const post = (url: string, body: Record<string, unknown>, as: string) =>
    server.call({ method: 'POST', url, payload: body, token: as });
  const keptNames = async () =>
    (await server.rows<{ client_names: string }>(sql`select client_names from applications where id = ${applicationId}`))[0]
      ?.client_names;

  beforeAll(async () => {
    lawyer = await buildLawyer(server.db);
    token = await signInAs(server, lawyer);
    client = await buildClient(server.db, { firstName: 'Marguerite', surname: 'Okonkwo-Hale' });
    applicationId = (await buildApplication(server.db, { lawyerId: lawyer.id, clientId: client.id, status: 'approved' })).id;
  });

  it('are the client’s, lower-cased, from the insert on, whatever the writer sends', async () => {
    expect(await keptNames()).toBe('marguerite okonkwo-hale');
    const [row] = await server.rows<{ client_names: string }>(
      sql`insert into applications (lawyer_id, client_id, client_names) values (${lawyer.id}, ${client.id}, 'someone else')
        returning client_names`,
    );
    expect(row?.client_names).toBe('marguerite okonkwo-hale');
    await server.rows(sql`update applications set client_names = 'someone else' where id = ${applicationId}`);
    expect(await keptNames()).toBe('marguerite okonkwo-hale');
  });

  it('find the case by any part of a name of three letters or more, and by the start of a name', async () => {
    const found = async (search: string) =>
      (await list(`/api/applications?search=${encodeURIComponent(search)}`, token)).items.map((item) => item.id);
    expect(await found('GUERI')).toContain(applicationId);
    expect(await found('kwo-h')).toContain(applicationId);
    expect(await found('ok')).toContain(applicationId);
    expect(await found('m')).toContain(applicationId);
    // Not the middle of a name for one or two letters, nor a word across the names.
    expect(await found('kw')).not.toContain(applicationId);
    expect(await found('ite oko')).toContain(applicationId);
    expect(await found('iteoko')).not.toContain(applicationId);
  });

  it('follow the client’s names when staff change them, in every list', async () => {
    const res = await post('/api/clients/update', { applicationId, lastName: 'Adeyemi' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(await keptNames()).toBe('marguerite adeyemi');
    expect((await list('/api/applications?search=adeyemi', token)).items.map((item) => item.id)).toContain(applicationId);
    expect((await list('/api/applications?search=okonkwo', token)).items.map((item) => item.id)).not.toContain(applicationId);
  });
});

describe('a search word of several runs (a case reference)', () => {
  it('is looked up by its longest run and matches only where the whole word appears', async () => {
    const lawyer = await buildLawyer(server.db);
    const token = await signInAs(server, lawyer);
    const client = await buildClient(server.db, { firstName: 'Ottoline', surname: 'Varga' });
    for (const caseRef of ['QX-0123', 'qx-0123-b', '0123-QX', 'QX-01234', 'QX 0123'])
      await buildApplication(server.db, { lawyerId: lawyer.id, clientId: client.id, steps: { case: { caseRef } } });
    const refs = async (search: string) =>
      (await list(`/api/applications?search=${encodeURIComponent(search)}`, token)).items
        .map((item) => (item as { caseRef?: string }).caseRef)
        .sort();
    expect(await refs('qx-0123')).toEqual(['QX-0123', 'QX-01234', 'qx-0123-b']);
    expect(await refs('QX-0123-B')).toEqual(['qx-0123-b']);
    expect(await refs('0123-qx')).toEqual(['0123-QX']);
    // Two words: each is matched on its own, anywhere.
    expect(await refs('ottoline 0123')).toEqual(['0123-QX', 'QX 0123', 'QX-0123', 'QX-01234', 'qx-0123-b']);
    // The names too, by the same rule.
    expect(await refs('ottoline-varga')).toEqual([]);
    expect(await refs('line varga')).toHaveLength(5);
  });
});

describe('a search’s total, counted no further than a thousand rows past the page', () => {
  let token: string;

  beforeAll(async () => {
    const lawyer = await buildLawyer(server.db);
    token = await signInAs(server, lawyer);
    const client = await buildClient(server.db, { firstName: 'Zebedee', surname: 'Quornfield' });
    // 1,005 cases of one client, in one statement (the triggers keep the names on each).
    await server.rows(
      sql`insert into applications (lawyer_id, client_id, case_ref) select ${lawyer.id}, ${client.id}, 'QF-' || n from generate_series(1, 1005) n`,
    );
  });

  it('says there are at least that many, and more, when the count stopped', async () => {
    const first = await list('/api/applications?search=quornfield&pageSize=10', token);
    expect(first).toMatchObject({ total: 1001, totalIsAtLeast: true, page: 1 });
    expect(first.items).toHaveLength(10);
  });

  it('is exact, with no such field, once the page is near enough to the end', async () => {
    const later = await list('/api/applications?search=quornfield&pageSize=10&page=2', token);
    expect(later.total).toBe(1005);
    expect(later).not.toHaveProperty('totalIsAtLeast');
    const fewer = await list('/api/applications?search=qf-100&pageSize=10', token);
    expect(fewer.total).toBe(7); // QF-100 and QF-1000 to QF-1005
    expect(fewer).not.toHaveProperty('totalIsAtLeast');
  });

  it('pages the matches newest first, whether the count stopped or not', async () => {
    const ids = async (query: string) => (await list(`/api/applications?${query}`, token)).items.map((item) => item.id);
    // Page 1 counts 1,001 of 1,005 and stops; page 2 counts them all. Either way the pages are the
    // list's own: every case of this lawyer's is one of the client's.
    expect(await ids('search=quornfield&pageSize=10&page=1')).toEqual(await ids('pageSize=10&page=1'));
    expect(await ids('search=quornfield&pageSize=10&page=2')).toEqual(await ids('pageSize=10&page=2'));
    expect(await ids('search=quornfield&pageSize=100&page=11')).toEqual(await ids('pageSize=100&page=11'));
    const fewer = await ids('search=qf-100&pageSize=5&page=2');
    const all = await ids('search=qf-100&pageSize=10');
    expect(fewer).toEqual(all.slice(5));
    expect(all).toEqual([...all].sort((a, b) => b - a)); // one insert: the same start, the newest id first
  });

  it('is counted alone for a page past the end', async () => {
    const past = await list('/api/applications?search=qf-100&pageSize=5&page=3', token);
    expect(past).toMatchObject({ items: [], total: 7, page: 3 });
  });

  it('is exact without a search, however many there are', async () => {
    const all = await list('/api/applications?pageSize=10', token);
    expect(all.total).toBe(1005);
    expect(all).not.toHaveProperty('totalIsAtLeast');
  });
});

describe('the planner’s settings of the server’s connections', () => {
  it('have Memoize off, on either database (docs/decisions.md, 724)', async () => {
    for (let i = 0; i < 3; i++) {
      const [row] = await server.rows<{ memoize: string }>(sql`select current_setting('enable_memoize') as memoize`);
      expect(row?.memoize).toBe('off');
    }
  });
});
