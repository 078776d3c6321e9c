import fs from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_PATH } from '../../src/server/app';
import { loadOperations } from '../../src/server/contract/operations';
import { startTestServer, type TestServer } from './harness';

// The contract as a browsable reference at /api/docs (docs/decisions.md: 316).

let server: TestServer;
let page: string;
const operations = loadOperations(CONTRACT_PATH);
const contract = parse(fs.readFileSync(CONTRACT_PATH, 'utf8')) as {
  tags: { name: string }[];
  components: { schemas: Record<string, unknown> };
};

beforeAll(async () => {
  server = await startTestServer();
  const res = await server.call({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  page = res.body;
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/docs', () => {
  it('is a page that needs no sign-in and is checked on every load', async () => {
    const res = await server.call({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(page).toMatch(/^<!doctype html>/);
  });

  it('lists every operation of the contract, with its method, path and id', () => {
    for (const op of operations) {
      const article = articleOf(op.operationId);
      expect(article, op.operationId).toContain(`>${op.method}</span>`);
      expect(article).toContain(`<code class="path">${op.path}</code>`);
    }
    expect(page).toContain(`${operations.length} operations`);
  });

  it('groups them by tag, in the contract’s order', () => {
    const order = [...page.matchAll(/<section id="tag-([a-z]+)">/g)].map((m) => m[1]);
    expect(order).toEqual(contract.tags.map((t) => t.name).filter((name) => order.includes(name)));
    expect(order).toEqual(expect.arrayContaining(['auth', 'applications', 'files', 'loans', 'drawdowns']));
    const auth = page.slice(page.indexOf('<section id="tag-auth">'), page.indexOf('<section id="tag-users">'));
    expect(auth).toContain('id="op-signIn"');
  });

  it('gives who may call, the parameters, the request body and the answers', () => {
    const signIn = articleOf('signIn');
    expect(signIn).toContain('<strong>public</strong>');
    expect(signIn).toContain('Request body');
    expect(signIn).toContain('href="#schema-Credentials"');
    expect(signIn).toMatch(/<span class="status s2">200<\/span>/);

    const step = articleOf('updateApplicationStep');
    expect(step).toContain('<h4>Parameters</h4>');
    expect(step).toMatch(/<code>step<\/code> <span class="req">required<\/span><\/td><td>path<\/td>/);
    expect(step).toContain('<code>Idempotency-Key</code>');
    expect(step).toContain('permissions: <code>updateApplication</code>');
    expect(step).toMatch(/<span class="status s4">409<\/span>/);

    const file = articleOf('getFile');
    expect(file).toContain('application/pdf');
    expect(file).toContain('<code>Content-Disposition</code>');
  });

  it('lists every schema once, with its fields, linked from where it is used', () => {
    for (const name of Object.keys(contract.components.schemas))
      expect(page.split(`<section class="schema" id="schema-${name}">`).length, name).toBe(2);
    const credentials = page.slice(page.indexOf('id="schema-Credentials"'));
    expect(credentials.slice(0, credentials.indexOf('</section>'))).toMatch(/<code>login<\/code> <span class="req">required/);
  });

  it('keeps the Content-Security-Policy: no script, nothing from another origin', async () => {
    const res = await server.call({ method: 'GET', url: '/api/docs' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/(?:src|href)="(?:https?:)?\/\//i);
    expect(page).not.toMatch(/@import|url\(/i);
  });

  it('comes compressed to a browser that takes it', async () => {
    const res = await server.call({ method: 'GET', url: '/api/docs', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.rawPayload.length).toBeLessThan(page.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(page);
  });

  it('offers the contract itself', async () => {
    const res = await server.call({ method: 'GET', url: '/api/docs/openapi.yaml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/yaml; charset=utf-8');
    expect(res.body).toBe(fs.readFileSync(CONTRACT_PATH, 'utf8'));
    expect(page).toContain('href="/api/docs/openapi.yaml"');
  });
});

describe('in production', () => {
  it('leaves out the development calls, which do not answer there', async () => {
    const production = await startTestServer({ production: true, devMailbox: false });
    try {
      const res = await production.call({ method: 'GET', url: '/api/docs' });
      expect(res.statusCode).toBe(200);
      const devOnly = operations.filter((op) => op.devOnly);
      expect(devOnly.length).toBeGreaterThan(0);
      for (const op of devOnly) expect(res.body, op.operationId).not.toContain(`id="op-${op.operationId}"`);
      for (const op of operations.filter((o) => !o.devOnly)) expect(res.body).toContain(`id="op-${op.operationId}"`);
      expect(res.body).toContain(`${operations.length - devOnly.length} operations`);
    } finally {
      await production.close();
    }
  });
});

function articleOf(operationId: string): string {
  const start = page.indexOf(`<article class="op" id="op-${operationId}">`);
  expect(start, operationId).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf('</article>', start));
}
