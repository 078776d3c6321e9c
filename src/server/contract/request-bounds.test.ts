import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  DATE_TEXT_MAX_LENGTH,
  DEPENDANTS_MAX,
  INVOICE_NUMBER_MAX_LENGTH,
  PAGE_MAX,
  PERCENT_MAX,
  YEARS_MAX,
} from '../../shared/rules/limits';
import { MONEY_MAX_POUNDS } from '../../shared/rules/money';
import { RECORD_ID_MAX } from '../../shared/rules/record-id';

// Every number a request carries (body, query, path) is bounded in the contract, so no figure
// reaches a service or the database unchecked (docs/decisions.md 553); and the bounds that are
// rules of the portal are the shared rules' own figures, named once in src/shared.

type Json = Record<string, unknown>;
const doc = parse(fs.readFileSync('openapi.yaml', 'utf8')) as Json & { paths: Record<string, Json> };

function resolve(node: Json): Json {
  let current = node;
  while (typeof current.$ref === 'string') {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((at, key) => at[key] as Json, doc);
  }
  return current;
}

interface NumberAt {
  where: string;
  /** The property's (or parameter's) own name. */
  name: string;
  schema: Json;
}

/** Every integer or number schema under a request schema, with where it sits. */
function numbersIn(node: unknown, where: string, name: string, seen: ReadonlySet<string>, out: NumberAt[]): void {
  if (!node || typeof node !== 'object') return;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string') {
    if (seen.has(ref)) return;
    numbersIn(resolve(node as Json), where, name, new Set([...seen, ref]), out);
    return;
  }
  const schema = node as Json;
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (types.includes('integer') || types.includes('number')) out.push({ where, name, schema });
  for (const [key, child] of Object.entries((schema.properties as Json | undefined) ?? {}))
    numbersIn(child, `${where}.${key}`, key, seen, out);
  numbersIn(schema.items, `${where}[]`, name, seen, out);
  if (typeof schema.additionalProperties === 'object') numbersIn(schema.additionalProperties, `${where}{}`, name, seen, out);
  for (const key of ['oneOf', 'anyOf', 'allOf'])
    for (const [i, child] of ((schema[key] as unknown[] | undefined) ?? []).entries())
      numbersIn(child, `${where}|${i}`, name, seen, out);
}

function requestNumbers(): NumberAt[] {
  const out: NumberAt[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('operationId' in op)) continue;
      const operation = op as Json;
      const parameters = [
        ...((item.parameters as Json[] | undefined) ?? []),
        ...((operation.parameters as Json[] | undefined) ?? []),
      ];
      for (const parameter of parameters.map(resolve)) {
        const name = String(parameter.name);
        numbersIn(parameter.schema, `${String(operation.operationId)} ${String(parameter.in)} ${name}`, name, new Set(), out);
      }
      const body = operation.requestBody ? resolve(operation.requestBody as Json) : undefined;
      for (const media of Object.values((body?.content as Json | undefined) ?? {}))
        numbersIn((media as Json).schema, `${String(operation.operationId)} body`, '', new Set(), out);
    }
  }
  return out;
}

const numbers = requestNumbers();
const lower = (s: Json) => (s.minimum ?? s.exclusiveMinimum) as number | undefined;
const upper = (s: Json) => (s.maximum ?? s.exclusiveMaximum) as number | undefined;

/** The portal's own rules, by the name a request gives the figure: [minimum, maximum]. */
const RULES: Record<string, [number, number]> = {
  dependantsUnder18: [0, DEPENDANTS_MAX],
  dependantsOther: [0, DEPENDANTS_MAX],
  yearsWithEmployer: [0, YEARS_MAX],
  yearsMarried: [0, YEARS_MAX],
  clientInterest: [0, PERCENT_MAX],
  clientsInterest: [0, PERCENT_MAX],
  page: [1, PAGE_MAX],
  ...Object.fromEntries(
    [
      'amount',
      'fee',
      'feeEstimate',
      'feeEstimateToReach',
      'outstandingFees',
      'estimationOfSettlementAmount',
      'monthlyIncome',
      'monthlyExpenditure',
      'nonEssMonthlyExpenditure',
      'estimatedValue',
      'totalSum',
      'assetValue',
      'valueOfRealisable',
    ].map((name) => [name, [0, MONEY_MAX_POUNDS] as [number, number]]),
  ),
};

describe('numbers in requests', () => {
  it('finds the request numbers of the contract', () => {
    // The walk reaches bodies, query and path parameters, through $refs and arrays.
    const places = numbers.map((n) => n.where);
    expect(places).toContain('updateApplicationStep body.journeyData.personal.dependantsUnder18');
    expect(places).toContain('updateApplicationStep body.journeyData.asset.assets[].valueOfRealisable');
    expect(places).toContain('createDrawdown body.amount');
    expect(places).toContain('listClients query page');
    expect(places).toContain('getClient path id');
  });

  it('every integer and number a request carries has a lower and an upper bound', () => {
    const unbounded = numbers
      .filter((n) => n.schema.enum === undefined && n.schema.const === undefined)
      .filter((n) => lower(n.schema) === undefined || upper(n.schema) === undefined)
      .map((n) => n.where);
    expect(unbounded).toEqual([]);
  });

  it("bounds that are the portal's rules are the shared rules' figures", () => {
    const differing = numbers
      .filter((n) => RULES[n.name] !== undefined)
      .filter((n) => lower(n.schema) !== RULES[n.name]![0] || upper(n.schema) !== RULES[n.name]![1])
      .map((n) => `${n.where}: ${lower(n.schema)}..${upper(n.schema)}`);
    expect(differing).toEqual([]);
    // A record id is a PostgreSQL integer, wherever it appears.
    const ids = numbers.filter((n) => /^id$|Id$/.test(n.name));
    expect(ids.length).toBeGreaterThan(10);
    expect(ids.filter((n) => lower(n.schema) !== 1 || upper(n.schema) !== RECORD_ID_MAX).map((n) => n.where)).toEqual([]);
  });

  it("a drawdown request's invoice number and dates are short texts, as the shared limits say", () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    const request = schemas.DrawdownRequest!.properties as Record<string, Json>;
    expect(request.invoiceNumber!.maxLength).toBe(INVOICE_NUMBER_MAX_LENGTH);
    expect(request.clientExpectedRepaymentDate!.maxLength).toBe(DATE_TEXT_MAX_LENGTH);
    expect(schemas.DrawdownRequestDate!.maxLength).toBe(DATE_TEXT_MAX_LENGTH);
  });
});
