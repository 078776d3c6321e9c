import { describe, expect, it } from 'vitest';
import { providerRoleStatement } from './provider-identity';

describe('providerRoleStatement', () => {
  it('names a lender the lender, as its Credit Agreement does', () => {
    const statement = providerRoleStatement({
      companyName: 'Provider Finance Ltd',
      providerRole: 'lender',
      lenderName: 'Provider Finance Ltd',
    });
    expect(statement).toBe('Provider Finance Ltd is the lender of the loans made through this portal.');
    expect(statement).not.toContain('not a lender');
  });

  it('keeps the spec’s words for a credit broker, and names its lender', () => {
    expect(providerRoleStatement({ companyName: 'Broker Ltd', providerRole: 'broker', lenderName: 'Lending Partner plc' })).toBe(
      'Broker Ltd is a credit broker and not a lender. The loans are made by Lending Partner plc.',
    );
  });
});
