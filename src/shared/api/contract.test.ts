import { readFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import { permissions, roles } from '../rules/permissions';

/**
 * The contract (openapi.yaml) drives the client's types and the server's validation and
 * authorization, so its shape is checked here: generated types are current, every operation
 * is named, tagged and guarded, and every call of the specification is present.
 */

const contractUrl = new URL('../../../openapi.yaml', import.meta.url);
const typesUrl = new URL('./schema.d.ts', import.meta.url);

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: unknown[];
  responses?: Record<string, unknown>;
  'x-permissions'?: unknown[];
  'x-roles'?: unknown[];
}
interface Contract {
  paths: Record<string, Record<string, Operation>>;
}

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;
const contract = parse(readFileSync(contractUrl, 'utf8')) as Contract;
const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
  methods.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as Operation })),
);
const isPublic = (op: Operation) => Array.isArray(op.security) && op.security.length === 0;

/** Section 7 of both specification documents, as method and path (without the /api prefix). */
const specCalls = [
  // The first specification document: applications and access.
  'POST /auth',
  'POST /users/sign-up/validate',
  'POST /users/sign-up/complete',
  'POST /users/reset/validate',
  'POST /users/reset',
  'POST /users/reset/update',
  'GET /users',
  'GET /user/{id}',
  'GET /common/postcode',
  'GET /common/dump',
  'GET /applications',
  'GET /applications/{id}',
  'POST /applications/create',
  'POST /applications/update/{step}',
  'POST /applications/checks',
  'POST /applications/state/update',
  'POST /docusign/init',
  'POST /applications/file/upload',
  'POST /applications/file/delete',
  'GET /applications/{id}/docs',
  'GET /docusign/signedDocs',
  'GET /mail/{id}',
  'GET /mail/{id}/{mailId}',
  'GET /pdf-generator/from-email',
  'GET /pdf-generator/for-application-json/{id}',
  'POST /loans/update',
  // The second: loans, drawdowns and administration.
  'GET /firms',
  'GET /firms/{id}',
  'POST /firms',
  'POST /firms/update',
  'DELETE /firms/{id}',
  'GET /solicitors',
  'GET /solicitors/{id}',
  'POST /solicitors',
  'POST /solicitors/update',
  'DELETE /solicitors/{id}',
  'GET /lawyers',
  'GET /lawyers/{id}',
  'GET /lawyers/count',
  'POST /lawyers',
  'POST /lawyers/update',
  'DELETE /lawyers/{id}',
  'GET /loans',
  'GET /loans/{id}',
  'GET /loans/{id}/balance',
  'GET /loans/aggregate',
  'POST /loans/{id}/state',
  'POST /drawdowns',
  'PUT /drawdowns/{id}',
  'POST /drawdowns/{id}/state',
  'GET /drawdowns/{id}',
  'GET /drawdowns',
  'GET /drawdowns/aggregate',
];

/** Calls whose path the specification does not show: chosen in docs/decisions.md. */
const decidedCalls = [
  'GET /auth',
  'DELETE /auth',
  'POST /docusign/notify',
  'POST /docusign/sign',
  'POST /applications/docs/state',
  'GET /applications/{id}/docs/{type}/download',
  'GET /files/{token}',
  'GET /clients',
  'GET /clients/{id}',
  'POST /clients/update',
  'POST /clients/reset-password',
  'GET /firms/{id}/lawyers',
  'GET /firms/{id}/loans/aggregate',
  'GET /config',
  'GET /dev/mailbox',
];

describe('openapi.yaml', () => {
  it('matches the generated types in src/shared/api/schema.d.ts', async () => {
    const ast = await openapiTS(contractUrl, { silent: true });
    const expected = `${COMMENT_HEADER}${astToString(ast)}`;
    const actual = readFileSync(typesUrl, 'utf8');
    expect(actual === expected, 'src/shared/api/schema.d.ts is stale: run npm run gen:api').toBe(true);
  }, 30_000);

  it('names, tags, summarizes and guards every operation', () => {
    const ids = operations.map(({ op }) => op.operationId);
    for (const { method, path, op } of operations) {
      const at = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, at).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(
        ids.filter((id) => id === op.operationId),
        `${at}: operationId must be unique`,
      ).toHaveLength(1);
      expect(op.tags?.length, `${at}: tags`).toBeGreaterThan(0);
      expect(op.summary, `${at}: summary`).toBeTruthy();
      if (!isPublic(op)) {
        expect(op.responses?.['401'], `${at}: 401`).toBeDefined();
        expect(op.responses?.['403'], `${at}: 403`).toBeDefined();
      }
    }
  });

  it('uses only known permissions and roles, and never lists root', () => {
    for (const { method, path, op } of operations) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op['x-permissions'] ?? []) expect(permissions, at).toContain(p);
      for (const r of op['x-roles'] ?? []) expect(roles, at).toContain(r);
      expect(op['x-roles'] ?? [], `${at}: root is implicit`).not.toContain('root');
      if (isPublic(op)) {
        expect(op['x-permissions'], `${at}: public`).toBeUndefined();
        expect(op['x-roles'], `${at}: public`).toBeUndefined();
      }
    }
  });

  it('describes every call of section 7 of both specification documents', () => {
    const present = new Set(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    const missing = [...specCalls, ...decidedCalls].filter((call) => !present.has(call));
    expect(missing).toEqual([]);
  });
});
