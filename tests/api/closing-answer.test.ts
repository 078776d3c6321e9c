import net from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('a request that arrives while the server closes', () => {
  it('is answered 503 unavailable in the portal’s shape, with a retry and the connection closed', async () => {
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = server.app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    // A sign-in whose body is still arriving keeps this connection busy, so the close waits for it.
    const body = JSON.stringify({ login: 'nobody@example.test', password: 'not-the-password' });
    // Its "100 Continue" says the server has taken the request in (before the close began).
    socket.write(
      `POST /api/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    await expect.poll(() => received, { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    received = '';
    socket.write(body.slice(0, 5));
    const closed = server.app.close();
    // The rest of the body, then a second request on the same connection, after the close began.
    socket.write(body.slice(5) + 'GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n');
    await once(socket, 'close');
    await closed;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    // The request that had begun is answered as usual.
    expect(answers[0]).toMatch(/^HTTP\/1\.1 401 /);
    const [head, answer] = answers[1]!.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nretry-after: 2\r\n/i);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer!)).toEqual({ error: 'unavailable' });
  });
});
