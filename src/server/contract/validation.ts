import { Ajv, type ErrorObject } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { MONEY_MAX_POUNDS } from '../../shared/rules/money';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ??
  addFormatsImport) as unknown as (ajv: Ajv) => Ajv;

/**
 * Two validators: bodies are checked strictly (no type coercion, nothing silently removed),
 * while query, path and header parameters arrive as text and are coerced to their types.
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
  });
  addFormats(ajv);
  // OpenAPI formats that carry no rule of their own.
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(format, true);
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);

const validationError = (errors: readonly ErrorObject[]) => ({
  error: Object.assign(new Error('validation'), { validation: errors }),
});

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  if (httpPart === 'body') {
    const validate = strict.compile(schema);
    return (data: unknown) => (validate(data) ? { value: data } : validationError(validate.errors ?? []));
  }
  const validate = coercing.compile(schema);
  const integers = integerParameters(schema);
  return (data: unknown) => {
    // Checked before coercion: Ajv would read '0x10', '1e1', '+1', '01' or ' 1' as numbers.
    const lenient = nonCanonicalIntegers(integers, data);
    if (lenient.length > 0) return validationError(lenient);
    return validate(data) ? { value: data } : validationError(validate.errors ?? []);
  };
};

/** A whole number as people write it: no sign but minus, no leading zeros, no exponent, fraction or spaces. */
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

type ParameterSchema = { type?: unknown; items?: { type?: unknown } };

const isInteger = (schema: ParameterSchema | undefined) =>
  schema !== undefined && (schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer')));

/** The parameters (path, query, header) declared as integers, or lists of integers. */
function integerParameters(schema: object): string[] {
  const properties = (schema as { properties?: Record<string, ParameterSchema> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => isInteger(property) || (property.type === 'array' && isInteger(property.items)))
    .map(([name]) => name);
}

/** Errors for integer parameters whose text is not a canonical decimal integer (each reads 'invalid'). */
function nonCanonicalIntegers(names: readonly string[], data: unknown): ErrorObject[] {
  if (names.length === 0 || !data || typeof data !== 'object') return [];
  const errors: ErrorObject[] = [];
  for (const name of names) {
    const value = (data as Record<string, unknown>)[name];
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((text) => typeof text === 'string' && !CANONICAL_INTEGER.test(text))) {
      errors.push({
        instancePath: `/${name}`,
        schemaPath: '#/type',
        keyword: 'type',
        params: { type: 'integer' },
        message: 'must be a decimal integer',
      });
    }
  }
  return errors;
}

/** Turns Ajv's errors into the wire's field → code map (the spec's codes where they exist). */
export function fieldCodesFromAjv(errors: readonly ErrorObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field =
      e.keyword === 'required'
        ? [base, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.')
        : e.keyword === 'additionalProperties'
          ? [base, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.') || '_'
          : base || '_';
    if (field in out) continue;
    out[field] =
      e.keyword === 'required'
        ? 'required'
        : e.keyword === 'format' && (e.params as { format: string }).format === 'email'
          ? 'email'
          : e.keyword === 'maxLength' || e.keyword === 'maxItems'
            ? 'tooLong'
            : e.keyword === 'additionalProperties'
              ? 'unknownField'
              : e.keyword === 'minimum' || e.keyword === 'maximum'
                ? boundCode(e.keyword, (e.params as { limit: number }).limit)
                : 'invalid';
  }
  return out;
}

/**
 * A number outside the contract's bounds, in the words the shared rules use for the same bound
 * (docs/decisions.md 553): below 0 'positive', above the bound on any amount 'amountTooLarge',
 * any other bound 'invalid'.
 */
function boundCode(keyword: 'minimum' | 'maximum', limit: number): string {
  if (keyword === 'minimum' && limit === 0) return 'positive';
  if (keyword === 'maximum' && limit === MONEY_MAX_POUNDS) return 'amountTooLarge';
  return 'invalid';
}
