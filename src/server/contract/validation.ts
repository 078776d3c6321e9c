import { Ajv, type ErrorObject } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (ajv: Ajv) => Ajv;

/**
 * Two validators: bodies are checked strictly (no type coercion, nothing silently removed),
 * while query, path and header parameters arrive as text and are coerced to their types.
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false });
  addFormats(ajv);
  // OpenAPI formats that carry no rule of their own.
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(format, true);
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema);
  return (data: unknown) => (validate(data) ? { value: data } : { error: Object.assign(new Error('validation'), { validation: validate.errors ?? [] }) });
};

/** Turns Ajv's errors into the wire's field → code map (the spec's codes where they exist). */
export function fieldCodesFromAjv(errors: readonly ErrorObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field =
      e.keyword === 'required' ? [base, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.')
      : e.keyword === 'additionalProperties' ? [base, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.')
      : base || '_';
    if (field in out) continue;
    out[field] =
      e.keyword === 'required' ? 'required'
      : e.keyword === 'format' && (e.params as { format: string }).format === 'email' ? 'email'
      : e.keyword === 'maxLength' || e.keyword === 'maxItems' ? 'tooLong'
      : e.keyword === 'additionalProperties' ? 'unknownField'
      : 'invalid';
  }
  return out;
}
