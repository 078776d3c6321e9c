import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

// A build made while the server runs is served without a restart (docs/decisions.md: 346).

let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-rebuild-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>first build</title>');
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-first.js'), 'export const build = 1;\n');
  server = await startTestServer({ staticDir });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const get = (url: string) => server.call({ method: 'GET', url, headers: { accept: 'text/html,*/*' } });

describe('a rebuild while the server runs', () => {
  it('serves the new build’s files at once, and no longer the removed ones', async () => {
    expect((await get('/assets/app-first.js')).statusCode).toBe(200);

    // What `vite build` does: the folder emptied, new hashed names written.
    fs.rmSync(path.join(staticDir, 'assets'), { recursive: true, force: true });
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, 'assets', 'app-second.js'), 'export const build = 2;\n');
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>second build</title>');
    fs.writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');

    const asset = await get('/assets/app-second.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain('build = 2');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const worker = await get('/sw.js');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect((await get('/applications')).body).toContain('second build');

    const gone = await get('/assets/app-first.js');
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'notFound' });
  });

  it('still answers the page for an address of the app and JSON 404 for an unknown API call', async () => {
    const page = await get('/loans/12');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const api = await get('/api/no-such-call');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'notFound' });
    // A file outside the build is never reached.
    expect((await get('/..%2Fpackage.json')).statusCode).toBe(404);
    expect((await get('/.hidden')).statusCode).toBe(404);
  });
});
