import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idealPostcodesProvider } from '../../src/server/address/ideal-postcodes';
import { buildClient, buildLawyer, buildPostcodeAddresses, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';

/**
 * A stand-in for api.ideal-postcodes.co.uk answering as its documentation shows: 200 with
 * {result: [...], code: 2000, message: 'Success'}; 404 {code: 4040, message: 'Postcode not found'}.
 */
function fakeIdealPostcodes() {
  const requests: string[] = [];
  const address = (over: Record<string, unknown>) => ({
    postcode: 'ID1 1QD',
    postcode_inward: '1QD',
    postcode_outward: 'ID1',
    post_town: 'LONDON',
    dependant_locality: '',
    thoroughfare: 'Barons Court Road',
    building_number: '2',
    building_name: '',
    sub_building_name: '',
    organisation_name: '',
    udprn: 25962203,
    line_1: '2 Barons Court Road',
    line_2: '',
    line_3: '',
    premise: '2',
    country: 'England',
    county: 'Greater London',
    district: 'Hammersmith and Fulham',
    longitude: -0.2086,
    latitude: 51.4899,
    ...over,
  });
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.searchParams.get('api_key') !== 'iddqd') return send(401, { code: 4010, message: 'Invalid Key' });
    switch (url.pathname) {
      case '/v1/postcodes/ID11QD':
        return send(200, {
          result: [
            address({}),
            address({
              line_1: 'Basement Flat',
              line_2: '4 Barons Court Road',
              building_number: '4',
              sub_building_name: 'Basement Flat',
            }),
            address({ line_1: 'Ideal Postcodes Ltd', line_2: 'Flat 3', line_3: '6 Barons Court Road' }),
          ],
          code: 2000,
          message: 'Success',
        });
      case '/v1/postcodes/ID11QE':
        return send(402, { code: 4020, message: 'Token balance depleted' });
      case '/v1/postcodes/ID11QF':
        return setTimeout(() => send(200, { result: [], code: 2000, message: 'Success' }), 2000);
      case '/v1/postcodes/ID11QG':
        res.writeHead(500, { 'content-type': 'text/html' });
        return res.end('<h1>oops</h1>');
      default:
        return send(404, { code: 4040, message: 'Postcode not found', suggestions: ['ID1 1QD'] });
    }
  });
  return { server, requests };
}

let builtin: TestServer;
let ideal: TestServer;
let fake: ReturnType<typeof fakeIdealPostcodes>;
let builtinToken: string;
let idealToken: string;

beforeAll(async () => {
  fake = fakeIdealPostcodes();
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  const port = (fake.server.address() as AddressInfo).port;
  builtin = await startTestServer();
  ideal = await startTestServer({
    postcode: {
      provider: 'idealPostcodes',
      idealPostcodesApiKey: 'iddqd',
      idealPostcodesUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 500,
    },
  });
  builtinToken = await signInAs(builtin, await buildClient(builtin.db));
  await buildPostcodeAddresses(builtin.db, 'SW1A 1AA', [
    ['Flat 1', '12 Buckingham Gate', '', 'London'],
    ['Flat 2', '12 Buckingham Gate', '', 'London'],
    ['', '14 Buckingham Gate', '', 'London'],
    ['The Mews Office', '16 Buckingham Gate', '', 'London'],
  ]);
  await buildPostcodeAddresses(builtin.db, 'CR2 6XH', [
    ['', '7 Selsdon Park Road', 'Sanderstead', 'South Croydon'],
    ['The Old Rectory', '', 'Sanderstead', 'South Croydon'],
  ]);
  idealToken = await signInAs(ideal, await buildLawyer(ideal.db));
});
afterAll(async () => {
  await builtin?.close();
  await ideal?.close();
  fake.server.closeAllConnections();
  await new Promise((resolve) => fake.server.close(resolve));
});

const lookup = (server: TestServer, postcode: string, token?: string) =>
  server.call({ method: 'GET', url: `/api/common/postcode?postcode=${encodeURIComponent(postcode)}`, token });

describe('GET /common/postcode (built-in provider)', () => {
  it('normalizes the postcode and answers its addresses with empty parts removed', async () => {
    const res = await lookup(builtin, ' sw1a-1aa ', builtinToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      postcode: 'SW1A1AA',
      addresses: [
        'Flat 1, 12 Buckingham Gate, London',
        'Flat 2, 12 Buckingham Gate, London',
        '14 Buckingham Gate, London',
        'The Mews Office, 16 Buckingham Gate, London',
      ],
    });
    const other = (await lookup(builtin, 'CR2 6XH', builtinToken)).json();
    expect(other.addresses).toContain('The Old Rectory, Sanderstead, South Croydon');
  });

  it('answers an empty list for an unknown postcode and for text that cannot be one', async () => {
    expect((await lookup(builtin, 'ZZ9 9ZZ', builtinToken)).json()).toEqual({ postcode: 'ZZ99ZZ', addresses: [] });
    expect((await lookup(builtin, 'A', builtinToken)).json()).toEqual({ postcode: 'A', addresses: [] });
  });

  it('needs a postcode with letters or digits, and a session', async () => {
    expect((await lookup(builtin, '---', builtinToken)).statusCode).toBe(400);
    expect((await lookup(builtin, 'SW1A 1AA')).statusCode).toBe(401);
  });
});

describe('GET /common/postcode (Ideal Postcodes)', () => {
  it('asks Ideal Postcodes with the key and joins each address’s lines and town', async () => {
    const res = await lookup(ideal, 'id1 1qd', idealToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      postcode: 'ID11QD',
      addresses: [
        '2 Barons Court Road, LONDON',
        'Basement Flat, 4 Barons Court Road, LONDON',
        'Ideal Postcodes Ltd, Flat 3, 6 Barons Court Road, LONDON',
      ],
    });
    expect(fake.requests).toContain('/v1/postcodes/ID11QD?api_key=iddqd');
  });

  it('maps their 404 (code 4040) to no addresses', async () => {
    const res = await lookup(ideal, 'ZZ9 9ZZ', idealToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ postcode: 'ZZ99ZZ', addresses: [] });
  });

  it.each([
    ['ID1 1QE', 'an account problem (402)'],
    ['ID1 1QF', 'no answer within the timeout'],
    ['ID1 1QG', 'a server error with an HTML body'],
  ])('answers 503 postcodeUnavailable for %s (%s), never 500', async (postcode) => {
    const res = await lookup(ideal, postcode, idealToken);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'postcodeUnavailable' });
  });

  it('reports a service that cannot be reached as unavailable', async () => {
    const provider = idealPostcodesProvider({ apiKey: 'iddqd', baseUrl: 'http://127.0.0.1:9', timeoutMs: 500 });
    await expect(provider.lookup('ID11QD')).rejects.toMatchObject({ statusCode: 503, code: 'postcodeUnavailable' });
    const wrongKey = idealPostcodesProvider({
      apiKey: 'wrong',
      baseUrl: `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`,
      timeoutMs: 500,
    });
    await expect(wrongKey.lookup('ID11QD')).rejects.toMatchObject({ code: 'postcodeUnavailable' });
  });
});
