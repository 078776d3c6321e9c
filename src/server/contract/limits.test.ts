import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Every operation the server may answer 429 documents it, with Retry-After (docs/decisions.md 542).
// Where the limits are taken, and the operations that reach each: a new limit (a takeAttempt or a
// 429 in another file) fails this test until it is placed here and in the contract.

const LIMITS: Record<string, string[]> = {
  'src/server/auth/link-call-limit.ts': [
    'validateSignUp',
    'completeSignUp',
    'validatePasswordReset',
    'updatePassword',
    'getSigningSession',
    'sendSigningCode',
    'completeSigning',
  ],
  'src/server/auth/drawdown-request-limit.ts': ['createDrawdown'],
  'src/server/auth/application-create-limit.ts': ['createApplication'],
  'src/server/services/loans/request-loan-balance.ts': ['requestLoanBalance'],
  'src/server/services/esign/send-signing-code.ts': ['sendSigningCode'],
  'src/server/services/esign/complete-signing.ts': ['completeSigning'],
  'src/server/services/accounts/request-password-reset.ts': ['requestPasswordReset', 'resetClientPassword'],
  'src/server/services/accounts/sign-in.ts': ['signIn'],
  'src/server/services/applications/resend-client-invitation.ts': ['resendClientInvitation'],
};
/** Files that take part in limits without being one: the counters, and the refusal's shape. */
const HELPERS = ['src/server/auth/rate-limit.ts', 'src/server/services/accounts/account-record.ts'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

type Json = Record<string, unknown>;
const doc = parse(fs.readFileSync('openapi.yaml', 'utf8')) as { paths: Record<string, Json>; components: Json };
const operations = Object.values(doc.paths).flatMap((item) =>
  Object.values(item).filter((op): op is Json => typeof op === 'object' && op !== null && 'operationId' in op),
);

describe('limits in the contract', () => {
  it('every file that takes a limit or answers 429 is known, with the operations that reach it', () => {
    const limiting = sourceFiles('src/server').filter((file) =>
      /takeAttempt\(|AppError\(429|tooMany\(/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(limiting.filter((file) => !HELPERS.includes(file)).sort()).toEqual(Object.keys(LIMITS).sort());
  });

  it.each([...new Set(Object.values(LIMITS).flat())])('%s documents 429 with Retry-After', (operationId) => {
    const op = operations.find((candidate) => candidate.operationId === operationId);
    expect(op, operationId).toBeDefined();
    const tooMany = (op!.responses as Json)['429'] as Json | undefined;
    expect(tooMany).toEqual({ $ref: '#/components/responses/TooManyRequests' });
  });

  it('the 429 answer names Retry-After, a whole number of seconds', () => {
    const response = (doc.components.responses as Json).TooManyRequests as Json;
    expect(response.headers).toMatchObject({ 'Retry-After': { schema: { type: 'integer', minimum: 0 } } });
    expect(String(response.description)).toMatch(/tooManyAttempts.*Retry-After/s);
  });
});
