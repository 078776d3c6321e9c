import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { CONTRACT_PATH } from '../../src/server/app';
import { loadOperations } from '../../src/server/contract/operations';
import { validPersonal } from '../fixtures/journeys';
import { buildApplication, buildLawyer, signInAs } from './factories';
import { smallPdf, uploadRequest } from './files-helpers';
import { startTestServer, type TestServer } from './harness';

// Delivery (docs/decisions.md: 310-312): the built PWA goes out as compressed at build, API
// answers are compressed on the fly above 1 KB, and file downloads are sent as they are.

let server: TestServer;
let staticDir: string;
let lawyerToken: string;
let applicationId: number;
const script = `export function hello(name) { return 'Hello, ' + name + '!'; }\n`.repeat(200);

beforeAll(async () => {
  // A stand-in for dist/, compressed the way `vite build` does it.
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-delivery-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.mkdirSync(path.join(staticDir, 'icons'));
  fs.writeFileSync(
    path.join(staticDir, 'index.html'),
    `<!doctype html><title>portal</title>${'<div id="root"></div>'.repeat(40)}`,
  );
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(staticDir, 'sw.js'), `self.addEventListener("fetch", () => {});\n`.repeat(50));
  fs.writeFileSync(path.join(staticDir, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  precompressDir(staticDir);

  server = await startTestServer({ staticDir });
  const lawyer = await buildLawyer(server.db);
  lawyerToken = await signInAs(server, lawyer);
  for (let i = 0; i < 12; i++)
    applicationId = (
      await buildApplication(server.db, { lawyerId: lawyer.id, steps: { personal: validPersonal(`delivery.${i}@example.test`) } })
    ).id;
});
afterAll(async () => {
  await server.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('the build writes compressed files beside the text files', () => {
  it('brotli and gzip beside JavaScript, HTML and the worker; none beside images', () => {
    for (const name of ['assets/app-abc123.js', 'index.html', 'sw.js']) {
      const plain = fs.readFileSync(path.join(staticDir, name));
      expect(brotliDecompressSync(fs.readFileSync(path.join(staticDir, `${name}.br`)))).toEqual(plain);
      expect(gunzipSync(fs.readFileSync(path.join(staticDir, `${name}.gz`)))).toEqual(plain);
    }
    expect(fs.existsSync(path.join(staticDir, 'icons', 'icon-192.png.br'))).toBe(false);
  });
});

describe('the PWA’s files', () => {
  const get = (url: string, acceptEncoding?: string) =>
    server.call({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('a hashed asset comes as brotli to a browser that takes it, cached for a year', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(fs.statSync(path.join(staticDir, 'assets/app-abc123.js.br')).size);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    // The security headers stay on.
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('as gzip to one without brotli, and plain to one that asks for no encoding', async () => {
    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    for (const plain of [await get('/assets/app-abc123.js'), await get('/assets/app-abc123.js', 'identity')]) {
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(script);
    }
  });

  it('the page and the service worker come compressed and are checked on every load', async () => {
    for (const url of ['/', '/applications/12/details', '/sw.js']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
    }
    const page = await get('/sign-in', 'br');
    expect(page.headers['content-type']).toContain('text/html');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');
  });

  it('an image is sent as it is', async () => {
    const res = await get('/icons/icon-192.png', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/png');
  });
});

describe('API answers', () => {
  it('are compressed above 1 KB when the client takes it', async () => {
    const plain = await server.call({ method: 'GET', url: '/api/applications', token: lawyerToken });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await server.call({
      method: 'GET',
      url: '/api/applications',
      token: lawyerToken,
      headers: { 'accept-encoding': 'br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await server.call({
      method: 'GET',
      url: '/api/applications',
      token: lawyerToken,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('zstd is not offered, whatever the Node version: br is chosen', async () => {
    const res = await server.call({
      method: 'GET',
      url: '/api/applications',
      token: lawyerToken,
      headers: { 'accept-encoding': 'zstd, br, gzip' },
    });
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('are sent as they are below 1 KB', async () => {
    const res = await server.call({ method: 'GET', url: '/api/config', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('a request body sent compressed is not inflated', async () => {
    const res = await server.call({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from('not really gzip'),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('file downloads', () => {
  it('a PDF goes out as stored, never compressed again', async () => {
    const bytes = await smallPdf('Delivery');
    const upload = await server.call(uploadRequest({ applicationId, type: 'formE', bytes, token: lawyerToken }));
    expect(upload.statusCode, upload.body).toBe(201);
    const link = await server.call({ method: 'GET', url: upload.json().url, token: lawyerToken });
    expect(link.statusCode, link.body).toBe(200);
    const res = await server.call({ method: 'GET', url: link.json().url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    expect(res.rawPayload).toEqual(bytes);
  });

  it('the contract’s file downloads are the routes that opt out of compression', () => {
    // application/octet-stream counts as compressible to the compression plugin, so the routes
    // that answer files opt out by their contract, not by their content type.
    const files = loadOperations(CONTRACT_PATH).filter((op) => op.binaryResponse);
    expect(files.map((op) => op.operationId)).toEqual(['getFile']);
  });
});
