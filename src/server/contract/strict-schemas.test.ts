import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadOperations } from './operations';

// Every schema of the contract compiles under Ajv's strict mode (docs/decisions.md 542): a
// misspelt keyword, a property whose schema YAML made null (a comma in a flow map's description
// starts a new key), or a `required` naming a property that is not there is refused here rather
// than silently allowing anything on the wire.

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ??
  addFormatsImport) as unknown as (ajv: Ajv) => Ajv;

const CONTRACT = path.resolve('openapi.yaml');
const ID = 'https://portal.test/openapi.json';

function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(format, true);
  // OpenAPI's own keywords inside a schema; they say nothing about validity.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  return ajv;
}

const doc = parse(fs.readFileSync(CONTRACT, 'utf8')) as { components: { schemas: Record<string, unknown> } };
const names = Object.keys(doc.components.schemas);

/** Compiles and returns the error message, or '' when the schema compiles. */
function compileError(compile: () => unknown): string {
  try {
    compile();
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the contract under Ajv strict mode', () => {
  it('compiles every component schema', () => {
    const ajv = strictAjv();
    // The schemas where their references point (#/components/schemas/…), under one id; the
    // container itself is never compiled as a schema.
    ajv.addVocabulary(['components']);
    ajv.addSchema({ $id: ID, components: doc.components }, undefined, undefined, false);
    const refused = names
      .map((name) => [name, compileError(() => ajv.compile({ $ref: `${ID}#/components/schemas/${name}` }))] as const)
      .filter(([, message]) => message);
    expect(refused).toEqual([]);
    expect(names.length).toBeGreaterThan(50);
  });

  it("compiles every operation's body, parameter and response schemas", () => {
    const operations = loadOperations(CONTRACT);
    const ajv = strictAjv();
    const refused: string[] = [];
    for (const op of operations) {
      const { response, ...request } = op.schema;
      const parts = {
        ...request,
        ...Object.fromEntries(Object.entries(response).map(([status, s]) => [`response ${status}`, s])),
      };
      for (const [part, schema] of Object.entries(parts)) {
        if (!schema) continue;
        const message = compileError(() => ajv.compile(schema));
        if (message) refused.push(`${op.operationId} ${part}: ${message}`);
      }
    }
    expect(refused).toEqual([]);
    expect(operations.length).toBeGreaterThan(50);
  }, 60_000);
});
