import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { pageDocument, prerenderedFile } from '../../scripts/prerender';
import { renderPage } from '../../src/client/app/prerender';
import { startTestServer, type TestServer } from './harness';

// The public pages prerendered at build (docs/decisions.md: 360): the server answers /sign-in with
// its HTML, rendered by the app's own components, and every other page with the shell.

let server: TestServer;
let staticDir: string;
const shell = `<!doctype html>
<html lang="en-GB">
  <head>
    <title>Litigation Funding Portal</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

beforeAll(async () => {
  // A stand-in for dist/, with the page rendered and written the way `vite build` does it.
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-prerender-'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), shell);
  const body = await renderPage('/sign-in');
  const file = path.join(staticDir, prerenderedFile('/sign-in'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    pageDocument(shell, body, { js: ['assets/sign-in-page-abc123.js'], css: [] }, () => ''),
  );
  precompressDir(staticDir);
  server = await startTestServer({ staticDir });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  server.call({
    method: 'GET',
    url,
    headers: { accept: 'text/html', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
  });

/** The labels of the page's form fields, in order. */
const labels = (html: string) => [...html.matchAll(/<label[^>]*>([^<]*)<\/label>/g)].map((m) => m[1]);

describe('a prerendered public page', () => {
  it('/sign-in comes with its form in the HTML: heading, labelled fields, the button', async () => {
    const res = await get('/sign-in');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html).toContain('<div id="root" data-prerendered>');
    expect(html).toContain('<title>Sign in | Litigation Funding Portal</title>');
    expect(html).toMatch(/<h1[^>]*>Sign in<\/h1>/);
    expect(labels(html)).toEqual(['Email', 'Password']);
    // Each label names its field.
    for (const [, id] of html.matchAll(/<label[^>]*for="([^"]+)"/g)) expect(html).toContain(`<input id="${id}"`);
    expect(html).toMatch(/<button type="submit"[^>]*>.*sign in.*<\/button>/);
    expect(html).toContain('Forgot your password?');
    // The route's modules are fetched beside the entry, not after it.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/sign-in-page-abc123.js">');
  });

  it('goes out as the brotli file written at build', async () => {
    const res = await get('/sign-in', 'gzip, deflate, br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(labels(brotliDecompressSync(res.rawPayload).toString())).toEqual(['Email', 'Password']);
  });

  it('/sign-in/ and /sign-in?next=… are the same page', async () => {
    for (const url of ['/sign-in/', '/sign-in?next=%2Floans'])
      expect(labels((await get(url)).body)).toEqual(['Email', 'Password']);
  });
});

describe('every other page', () => {
  it('an unknown path and a signed-in page get the shell, with an empty root', async () => {
    for (const url of ['/no-such-page', '/applications', '/applications/12/details', '/sign-in-elsewhere']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(shell);
    }
  });

  it('the API still answers its own 404', async () => {
    const res = await get('/api/no-such-call');
    expect(res.statusCode).toBe(404);
  });
});
