import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

let local: TestServer;
let open: TestServer;
beforeAll(async () => {
  local = await startTestServer({ trustProxy: 1 });
  open = await startTestServer({ devMailboxAnyClient: true });
});
afterAll(async () => {
  await local.close();
  await open.close();
});

const urls = ['/api/dev/mailbox', '/dev/mailbox'];

describe('the development mailbox', () => {
  it('answers loopback clients', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.8.0.2', '::1', '::ffff:127.0.0.1']) {
      for (const url of urls) {
        const res = await local.call({ method: 'GET', url, remoteAddress });
        expect(res.statusCode, `${url} from ${remoteAddress}`).toBe(200);
      }
    }
  });

  it('is not there for any other client, nor for one a proxy forwarded', async () => {
    const cases = [
      { remoteAddress: '203.0.113.7' },
      { remoteAddress: '10.0.0.5' },
      { remoteAddress: '2001:db8::1' },
      { remoteAddress: '::ffff:192.0.2.1' },
      // A proxy on this machine passing a stranger's request on.
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } },
      { remoteAddress: '127.0.0.1', headers: { forwarded: 'for=203.0.113.7' } },
    ];
    for (const { remoteAddress, headers } of cases) {
      for (const url of urls) {
        const res = await local.call({ method: 'GET', url, remoteAddress, headers });
        expect(res.statusCode, `${url} from ${remoteAddress} ${JSON.stringify(headers)}`).toBe(404);
        expect(res.body).not.toContain('Development mailbox');
      }
    }
  });

  it('answers every client when DEV_MAILBOX=1', async () => {
    for (const url of urls) {
      const res = await open.call({ method: 'GET', url, remoteAddress: '203.0.113.7' });
      expect(res.statusCode, url).toBe(200);
    }
  });
});
