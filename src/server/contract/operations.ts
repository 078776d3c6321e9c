import fs from 'node:fs';
import { parse } from 'yaml';
import { isRole, permissions as knownPermissions, type Permission, type Role } from '../../shared/rules/permissions';

/**
 * Reads openapi.yaml into the route definitions the server registers: one per operation, with
 * its JSON schemas (refs resolved), who may call it (x-permissions, x-roles) and whether it is
 * public. The contract is the single source: a call exists on the server only if it is here.
 */
export interface Operation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** As the contract writes it, e.g. /applications/{id}. */
  path: string;
  /** As Fastify routes it, e.g. /api/applications/:id. */
  url: string;
  public: boolean;
  permissions: Permission[];
  roles: Role[];
  /** Answered only outside production mode (x-dev-only or the dev tag). */
  devOnly: boolean;
  /** Multipart bodies are parsed and checked by their handler, not by a JSON schema. */
  multipart: boolean;
  /** Takes an Idempotency-Key header (offline outbox replays). */
  idempotent: boolean;
  /**
   * x-raw-body: the handler also gets the body's bytes as received (`request.rawBody`), for a
   * signature over them (DocuSign Connect's HMAC: docs/decisions.md 526).
   */
  rawBody: boolean;
  /**
   * Answers a file (a PDF, a ZIP: any content but JSON): sent as stored, never compressed again
   * on the way out (docs/decisions.md: 312).
   */
  binaryResponse: boolean;
  schema: {
    body?: object;
    querystring?: object;
    params?: object;
    headers?: object;
    response: Record<string, object>;
  };
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

export function loadOperations(file: string): Operation[] {
  const doc = parse(fs.readFileSync(file, 'utf8')) as Json;
  const resolve = resolver(doc);
  const globalSecurity = (doc.security as unknown[] | undefined) ?? [];
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const ops: Operation[] = [];

  for (const [path, item] of Object.entries(paths)) {
    const shared = ((item.parameters as Json[] | undefined) ?? []).map(resolve);
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const operationId = String(op.operationId);
      const security = (op.security as unknown[] | undefined) ?? globalSecurity;
      const parameters = [...shared, ...((op.parameters as Json[] | undefined) ?? []).map(resolve)];
      const roles = ((op['x-roles'] as unknown[] | undefined) ?? []).map((r) => {
        if (!isRole(r)) throw new Error(`${operationId}: unknown role ${String(r)} in x-roles`);
        return r;
      });
      const perms = ((op['x-permissions'] as unknown[] | undefined) ?? []).map((p) => {
        if (!(knownPermissions as readonly unknown[]).includes(p))
          throw new Error(`${operationId}: unknown permission ${String(p)}`);
        return p as Permission;
      });
      const body = (resolve(op.requestBody as Json | undefined) as Json | undefined)?.content as Record<string, Json> | undefined;
      const tags = (op.tags as string[] | undefined) ?? [];
      ops.push({
        operationId,
        method: method.toUpperCase() as Operation['method'],
        path,
        url: '/api' + path.replace(/\{([^}]+)\}/g, ':$1'),
        public: security.length === 0,
        permissions: perms,
        roles,
        devOnly: op['x-dev-only'] === true || tags.includes('dev'),
        multipart: Boolean(body?.['multipart/form-data']),
        rawBody: op['x-raw-body'] === true,
        idempotent: parameters.some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key'),
        binaryResponse: answersFiles(resolve(op.responses as Json) as Record<string, Json>, resolve),
        schema: {
          body: body?.['application/json'] ? (resolve(body['application/json'].schema as Json) as object) : undefined,
          querystring: parametersSchema(parameters, 'query'),
          params: parametersSchema(parameters, 'path'),
          headers: parametersSchema(parameters, 'header', (n) => n.toLowerCase()),
          response: responseSchemas(resolve(op.responses as Json) as Record<string, Json>, resolve),
        },
      });
    }
  }
  return ops;
}

/**
 * The JSON schema of an operation's parameters in one place. The query takes only what the
 * contract declares: a parameter it does not (a misspelt filter, one a service would read without
 * the contract saying so) is refused by name as 'unknownField', never silently ignored. Headers
 * are open: browsers and proxies add their own.
 */
function parametersSchema(parameters: Json[], where: string, rename: (n: string) => string = (n) => n): object | undefined {
  const own = parameters.filter((p) => p.in === where);
  const closed = where === 'query';
  if (own.length === 0 && !closed) return undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of own) {
    const name = rename(String(p.name));
    properties[name] = p.schema ?? { type: 'string' };
    if (p.required) required.push(name);
  }
  return { type: 'object', properties, required, ...(closed ? { additionalProperties: false } : {}) };
}

function responseSchemas(responses: Record<string, Json>, resolve: (node: unknown) => unknown): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [status, response] of Object.entries(responses ?? {})) {
    const content = (resolve(response) as Json).content as Record<string, Json> | undefined;
    const schema = content?.['application/json']?.schema;
    if (schema) out[status] = resolve(schema) as object;
  }
  return out;
}

function answersFiles(responses: Record<string, Json>, resolve: (node: unknown) => unknown): boolean {
  return Object.values(responses ?? {}).some((response) => {
    const content = (resolve(response) as Json).content as Record<string, Json> | undefined;
    return Object.keys(content ?? {}).some((type) => type !== 'application/json');
  });
}

/** Replaces every local $ref with the node it points at (the contract has no cycles). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resolved schema nodes are handed to Ajv and Fastify, which take any
function resolver(doc: Json): (node: unknown) => any {
  const cache = new Map<string, unknown>();
  const lookup = (ref: string): unknown => {
    if (!ref.startsWith('#/')) throw new Error(`only local refs are supported: ${ref}`);
    let node: unknown = doc;
    for (const part of ref.slice(2).split('/')) node = (node as Json)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`unresolved ref ${ref}`);
    return node;
  };
  const walk = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string') {
      if (seen.includes(ref)) throw new Error(`cyclic ref ${ref}`);
      if (!cache.has(ref)) cache.set(ref, walk(lookup(ref), [...seen, ref]));
      const { $ref: _ref, ...rest } = node as Json;
      const target = cache.get(ref);
      // OpenAPI 3.1 allows siblings beside $ref (description etc.): keep the target, add the rest.
      return Object.keys(rest).length ? { ...(target as Json), ...(walk(rest, seen) as Json) } : target;
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(node as Json)) out[k] = walk(v, seen);
    return out;
  };
  return (node) => walk(node, []);
}
