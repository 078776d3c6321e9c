import { describe, expect, it } from 'vitest';
import { journeySteps } from './steps';
import { validateStep, type StepContext } from './validate';

const today = new Date('2025-06-15T12:00:00Z');
const lawyer: StepContext = { audience: 'lawyer', today };
const customer: StepContext = { audience: 'customer', today };

/** A complete, valid client-details step (latest address first; the oldest is over 2 years old). */
function validPersonal(): Record<string, unknown> {
  return {
    firstName: 'Jane',
    lastName: 'Smith',
    email: 'jane@example.com',
    birthDayDay: 12,
    birthMonth: 3,
    birthYear: 1980,
    metClient: true,
    title: 'Ms',
    gender: 'Female',
    nationality: 'British',
    contactNumber: '+44 (0)20 7946-0000',
    dependants: false,
    addressHistory: [
      { type: 'postcode', postcode: 'SW1A 1AA', address: '10 Downing Street, London', date: '2024-01-01' },
      { type: 'manually', postcode: 'M1 1AE', house: '5', street: 'High Street', city: 'Manchester', date: '2020-03-01' },
    ],
    status: 'employedFullTime',
    occupation: 'Teacher',
    employer: 'School',
    yearsWithEmployer: 4,
  };
}

function fields(result: ReturnType<typeof validateStep>): Record<string, string> {
  return result.success ? {} : result.fields;
}

describe('client details', () => {
  it('accepts a complete step', () => {
    const result = validateStep('personal', validPersonal(), lawyer);
    expect(fields(result)).toEqual({});
    expect(result.success).toBe(true);
  });

  const required = [
    'firstName',
    'lastName',
    'email',
    'birthDayDay',
    'birthMonth',
    'birthYear',
    'metClient',
    'title',
    'gender',
    'nationality',
    'contactNumber',
    'dependants',
    'addressHistory',
    'status',
    'occupation',
    'employer',
    'yearsWithEmployer',
  ];
  it.each(required)('requires %s', (field) => {
    const data = validPersonal();
    delete data[field];
    expect(fields(validateStep('personal', data, lawyer))[field]).toBe('required');
  });

  it('treats blank text and null as missing', () => {
    expect(fields(validateStep('personal', { ...validPersonal(), firstName: '   ', lastName: null }, lawyer))).toMatchObject({
      firstName: 'required',
      lastName: 'required',
    });
  });

  it('keeps preferedName optional', () => {
    expect(validateStep('personal', { ...validPersonal(), preferedName: 'Janey' }, lawyer).success).toBe(true);
  });

  it('checks the email format', () => {
    expect(fields(validateStep('personal', { ...validPersonal(), email: 'jane@' }, lawyer)).email).toBe('email');
    expect(fields(validateStep('personal', { ...validPersonal(), email: 'ja ne@example.com' }, lawyer)).email).toBe('email');
  });

  it.each(['020 7946 0000', '+44 7700 900123', '(01632) 960-001', '+1 212 555 0100', '0800123'])(
    'accepts the phone %s',
    (phone) => {
      expect(fields(validateStep('personal', { ...validPersonal(), contactNumber: phone }, lawyer))).toEqual({});
    },
  );
  it.each(['12345', '0800 abc 123', '+44 7700 900123 456 789', '44+7700900123', '1234567890123456'])(
    'refuses the phone %s',
    (phone) => {
      expect(fields(validateStep('personal', { ...validPersonal(), contactNumber: phone }, lawyer)).contactNumber).toBe('phone');
    },
  );

  it('refuses a date of birth that does not exist', () => {
    expect(fields(validateStep('personal', { ...validPersonal(), birthDayDay: 31, birthMonth: 2 }, lawyer)).birthDayDay).toBe(
      'date',
    );
    expect(
      validateStep('personal', { ...validPersonal(), birthDayDay: 29, birthMonth: 2, birthYear: 1980 }, lawyer).success,
    ).toBe(true);
    expect(
      fields(validateStep('personal', { ...validPersonal(), birthDayDay: 29, birthMonth: 2, birthYear: 1981 }, lawyer))
        .birthDayDay,
    ).toBe('date');
  });

  it('requires the dependant counts only when there are dependants', () => {
    expect(fields(validateStep('personal', { ...validPersonal(), dependants: true }, lawyer))).toEqual({
      dependantsUnder18: 'required',
      dependantsOther: 'required',
    });
    expect(
      validateStep('personal', { ...validPersonal(), dependants: true, dependantsUnder18: 0, dependantsOther: 2 }, lawyer)
        .success,
    ).toBe(true);
    expect(
      fields(
        validateStep('personal', { ...validPersonal(), dependants: true, dependantsUnder18: 30, dependantsOther: -1 }, lawyer),
      ),
    ).toEqual({ dependantsUnder18: 'invalid', dependantsOther: 'positive' });
    // No dependants: stale counts are cleared, not stored.
    const result = validateStep('personal', { ...validPersonal(), dependants: false, dependantsUnder18: 2 }, lawyer);
    expect(result.success && 'dependantsUnder18' in result.output).toBe(false);
  });

  it('needs no occupation, employer or years for a non-employed status, and clears them', () => {
    for (const status of ['unemployed', 'notEmployedSickness', 'retired', 'homemaker']) {
      const data: Record<string, unknown> = { ...validPersonal(), status, occupation: 'x', yearsWithEmployer: 'not a number' };
      delete data.employer;
      const result = validateStep('personal', data, lawyer);
      expect(result.success).toBe(true);
      if (result.success) expect(Object.keys(result.output)).not.toEqual(expect.arrayContaining(['occupation']));
      if (result.success) expect(result.output).not.toHaveProperty('yearsWithEmployer');
    }
  });

  it('requires occupation, employer and years for an employed status', () => {
    const data: Record<string, unknown> = { ...validPersonal(), status: 'employedPartTime' };
    delete data.occupation;
    delete data.employer;
    delete data.yearsWithEmployer;
    expect(fields(validateStep('personal', data, lawyer))).toEqual({
      occupation: 'required',
      employer: 'required',
      yearsWithEmployer: 'required',
    });
  });

  it('refuses unknown options and wrong kinds of value', () => {
    expect(
      fields(validateStep('personal', { ...validPersonal(), title: 'Dr', gender: 1, metClient: 'yes', birthMonth: 13 }, lawyer)),
    ).toEqual({
      title: 'invalid',
      gender: 'invalid',
      metClient: 'invalid',
      birthMonth: 'invalid',
    });
  });

  it('refuses text over 100000 characters', () => {
    expect(fields(validateStep('personal', { ...validPersonal(), occupation: 'x'.repeat(100_001) }, lawyer)).occupation).toBe(
      'tooLong',
    );
    expect(validateStep('personal', { ...validPersonal(), occupation: 'x'.repeat(100_000) }, lawyer).success).toBe(true);
  });

  it('drops unknown keys', () => {
    const result = validateStep('personal', { ...validPersonal(), admin: true }, lawyer);
    expect(result.success && 'admin' in result.output).toBe(false);
  });
});

describe('address history (latest address first)', () => {
  const withHistory = (addressHistory: unknown) => ({ ...validPersonal(), addressHistory });
  const at = (date: string, n = 1) => ({ type: 'postcode', postcode: `AB${n} 1CD`, address: `${n} Road`, date });

  it('must not be empty', () => {
    expect(fields(validateStep('personal', withHistory([]), lawyer)).addressHistory).toBe('required');
  });

  it('covers exactly 730 days, but not 729', () => {
    // 2025-06-15 minus 730 days is 2023-06-16.
    expect(fields(validateStep('personal', withHistory([at('2023-06-16')]), lawyer))).toEqual({});
    expect(fields(validateStep('personal', withHistory([at('2023-06-17')]), lawyer))).toEqual({
      addressHistory: 'addressTooRecent',
    });
  });

  it('measures coverage from the earliest moved-in date', () => {
    expect(fields(validateStep('personal', withHistory([at('2025-01-01', 1), at('2023-01-01', 2)]), lawyer))).toEqual({});
    expect(fields(validateStep('personal', withHistory([at('2025-01-01', 1), at('2024-01-01', 2)]), lawyer))).toEqual({
      addressHistory: 'addressTooRecent',
    });
  });

  it('refuses an older address moved into after the newer one', () => {
    expect(
      fields(validateStep('personal', withHistory([at('2022-01-01', 1), at('2023-01-01', 2), at('2020-01-01', 3)]), lawyer)),
    ).toEqual({ 'addressHistory.1.date': 'dateOrder' });
    // The same month is allowed ("cannot be later").
    expect(
      fields(validateStep('personal', withHistory([at('2022-01-01', 1), at('2022-01-01', 2), at('2020-01-01', 3)]), lawyer)),
    ).toEqual({});
  });

  it('refuses a moved-in date in the future, and dates that do not exist', () => {
    expect(
      fields(validateStep('personal', withHistory([at('2025-07-01', 1), at('2020-01-01', 2)]), lawyer))['addressHistory.0.date'],
    ).toBe('futureDate');
    expect(fields(validateStep('personal', withHistory([at('2025-06-01', 1), at('2020-01-01', 2)]), lawyer))).toEqual({});
    expect(fields(validateStep('personal', withHistory([at('2020-02-30')]), lawyer))['addressHistory.0.date']).toBe('date');
    expect(fields(validateStep('personal', withHistory([at('March 2020')]), lawyer))['addressHistory.0.date']).toBe('date');
  });

  it('requires the fields of each kind of entry', () => {
    expect(fields(validateStep('personal', withHistory([{ type: 'postcode' }]), lawyer))).toEqual({
      'addressHistory.0.address': 'required',
      'addressHistory.0.postcode': 'required',
      'addressHistory.0.date': 'required',
    });
    expect(fields(validateStep('personal', withHistory([{ type: 'manually', date: '2020-01-01' }]), lawyer))).toEqual({
      'addressHistory.0.postcode': 'required',
      'addressHistory.0.house': 'required',
      'addressHistory.0.street': 'required',
      'addressHistory.0.city': 'required',
    });
    expect(fields(validateStep('personal', withHistory([{ date: '2020-01-01' }]), lawyer))).toEqual({
      'addressHistory.0.type': 'required',
    });
  });

  it('finds a repeated address by normalised postcode and address', () => {
    const first = { type: 'postcode', postcode: 'sw1a 1aa', address: '10 Downing Street, London', date: '2024-01-01' };
    const again = { type: 'postcode', postcode: 'SW1A1AA', address: '10 downing street london', date: '2020-01-01' };
    expect(fields(validateStep('personal', withHistory([first, again]), lawyer))).toEqual({
      'addressHistory.1.address': 'addressUsed',
    });
    const manual = {
      type: 'manually',
      postcode: 'M1 1AE',
      house: '5',
      street: 'High St',
      city: 'Manchester',
      date: '2024-01-01',
    };
    const manualAgain = { ...manual, city: 'MANCHESTER', street: 'high st.', date: '2020-01-01' };
    expect(fields(validateStep('personal', withHistory([manual, manualAgain]), lawyer))).toEqual({
      'addressHistory.1.house': 'addressUsed',
    });
  });

  it('keeps only the parts of the way an address was entered', () => {
    const result = validateStep('personal', withHistory([{ ...at('2020-01-01'), house: 'stale', city: 'stale' }]), lawyer);
    expect(result.success && result.output.addressHistory?.[0]).toEqual({
      type: 'postcode',
      postcode: 'AB1 1CD',
      address: '1 Road',
      date: '2020-01-01',
    });
  });

  it('reports entries that are not objects', () => {
    expect(fields(validateStep('personal', withHistory(['x', at('2020-01-01')]), lawyer))['addressHistory.0']).toBe('invalid');
    expect(fields(validateStep('personal', withHistory('x'), lawyer)).addressHistory).toBe('invalid');
  });
});

describe('client confirmation', () => {
  it('requires clientAgree ticked', () => {
    expect(fields(validateStep('client', {}, customer))).toEqual({ clientAgree: 'required' });
    expect(fields(validateStep('client', { clientAgree: false }, customer))).toEqual({ clientAgree: 'required' });
    expect(validateStep('client', { clientAgree: true }, customer)).toEqual({ success: true, output: { clientAgree: true } });
  });
});

function validCase(): Record<string, unknown> {
  return {
    caseRef: 'ABC/1',
    timeEstimation: '6 months',
    stageOfProceedings: 'First appointment',
    disputeLevel: 'optionC',
    yearsMarried: 10,
    settlementPrinciples: 'Equal split',
    preNuptualAgreement: false,
    completion: 'greater',
    feeEstimate: 20000,
    feeEstimateToReach: 15000,
    relevantProceedings: false,
    jurisDisputes: false,
    maintenancePaid: false,
    thirdPartyInvolvement: false,
    settlementOffer: false,
    outstandingFees: 0,
    clientSuffered: false,
    dateToKnowMore: '2025-09-01',
  };
}

describe('case details', () => {
  it('accepts a complete step without associated references', () => {
    expect(fields(validateStep('case', validCase(), lawyer))).toEqual({});
  });
  it.each(Object.keys(validCase()))('requires %s', (field) => {
    const data = validCase();
    delete data[field];
    expect(fields(validateStep('case', data, lawyer))).toEqual({ [field]: 'required' });
  });
  it.each([
    ['preNuptualAgreement', 'preNuptialDetails'],
    ['relevantProceedings', 'relevantProceedingsDetails'],
    ['jurisDisputes', 'jurisDisputesDetails'],
    ['settlementOffer', 'clientReactionDetails'],
    ['clientSuffered', 'clientSufferedDetails'],
  ])('requires %s details only after Yes', (question, details) => {
    expect(fields(validateStep('case', { ...validCase(), [question]: true }, lawyer))).toEqual({ [details]: 'required' });
    expect(validateStep('case', { ...validCase(), [question]: true, [details]: 'Some' }, lawyer).success).toBe(true);
    const cleared = validateStep('case', { ...validCase(), [question]: false, [details]: 'stale' }, lawyer);
    expect(cleared.success && details in cleared.output).toBe(false);
  });
  it('refuses negative amounts and impossible dates', () => {
    expect(
      fields(
        validateStep(
          'case',
          { ...validCase(), feeEstimate: -1, outstandingFees: Number.NaN, dateToKnowMore: '2025-02-31' },
          lawyer,
        ),
      ),
    ).toEqual({
      feeEstimate: 'positive',
      outstandingFees: 'invalid',
      dateToKnowMore: 'date',
    });
  });
});

describe('financial', () => {
  const valid = {
    estimationOfSettlementAmount: 1,
    monthlyIncome: 0,
    monthlyExpenditure: 2,
    nonEssMonthlyExpenditure: 3,
    intendedHousingArrangements: 'Rent',
  };
  it.each(Object.keys(valid))('requires %s', (field) => {
    const data: Record<string, unknown> = { ...valid };
    delete data[field];
    expect(fields(validateStep('financial', data, lawyer))).toEqual({ [field]: 'required' });
  });
  it('refuses negative amounts and numbers as text', () => {
    expect(fields(validateStep('financial', { ...valid, monthlyIncome: -0.01, monthlyExpenditure: '2' }, lawyer))).toEqual({
      monthlyIncome: 'positive',
      monthlyExpenditure: 'invalid',
    });
  });
});

describe('documents and assets', () => {
  const base = { assetValue: 1000, routeToRepayment: 'Sale of house' };
  it('requires assetValue, routeToRepayment and the Form E answer', () => {
    expect(fields(validateStep('asset', {}, lawyer))).toEqual({
      submittedFormE: 'required',
      assetValue: 'required',
      routeToRepayment: 'required',
    });
  });
  it('with Form E requires a document and clears the property answers', () => {
    expect(fields(validateStep('asset', { ...base, submittedFormE: true }, lawyer))).toEqual({ documents: 'required' });
    expect(fields(validateStep('asset', { ...base, submittedFormE: true, documents: [] }, lawyer))).toEqual({
      documents: 'required',
    });
    const result = validateStep(
      'asset',
      { ...base, submittedFormE: true, documents: [3], additionalProperty: true, assets: [{ type: 'bad' }] },
      lawyer,
    );
    expect(result).toEqual({ success: true, output: { ...base, submittedFormE: true, documents: [3] } });
  });
  it('refuses more than 10 documents and ids that are not record ids', () => {
    expect(
      fields(
        validateStep('asset', { ...base, submittedFormE: true, documents: Array.from({ length: 11 }, (_, i) => i + 1) }, lawyer),
      ).documents,
    ).toBe('tooManyFiles');
    expect(fields(validateStep('asset', { ...base, submittedFormE: true, documents: ['local-1'] }, lawyer))['documents.0']).toBe(
      'invalid',
    );
  });
  it('without Form E requires the property and assets answers and clears the documents', () => {
    expect(fields(validateStep('asset', { ...base, submittedFormE: false, documents: [1] }, lawyer))).toEqual({
      additionalProperty: 'required',
      includeOtherAssets: 'required',
    });
    const result = validateStep(
      'asset',
      { ...base, submittedFormE: false, documents: [1], additionalProperty: false, includeOtherAssets: false, assets: [{}] },
      lawyer,
    );
    expect(result).toEqual({
      success: true,
      output: { ...base, submittedFormE: false, additionalProperty: false, includeOtherAssets: false },
    });
  });
  it('requires the property details after Yes, by address type', () => {
    const data = { ...base, submittedFormE: false, additionalProperty: true, includeOtherAssets: false };
    expect(fields(validateStep('asset', data, lawyer))).toEqual({
      addressType: 'required',
      estimatedValue: 'required',
      totalSum: 'required',
      clientInterest: 'required',
    });
    expect(
      fields(
        validateStep('asset', { ...data, addressType: 'postcode', estimatedValue: 1, totalSum: 0, clientInterest: 50 }, lawyer),
      ),
    ).toEqual({ address: 'required', postcode: 'required' });
    expect(
      fields(
        validateStep(
          'asset',
          { ...data, addressType: 'manually', postcode: 'M1 1AE', estimatedValue: 1, totalSum: 0, clientInterest: 101 },
          lawyer,
        ),
      ),
    ).toEqual({
      house: 'required',
      street: 'required',
      city: 'required',
      clientInterest: 'percent',
    });
  });
  it('requires at least one asset after Yes, and each asset’s fields', () => {
    const data = { ...base, submittedFormE: false, additionalProperty: false, includeOtherAssets: true };
    expect(fields(validateStep('asset', data, lawyer))).toEqual({ assets: 'required' });
    expect(
      fields(
        validateStep(
          'asset',
          { ...data, assets: [{ type: 'other' }, { type: 'savings', valueOfRealisable: 5, clientsInterest: -1 }] },
          lawyer,
        ),
      ),
    ).toEqual({
      'assets.0.typeoOther': 'required',
      'assets.0.valueOfRealisable': 'required',
      'assets.0.clientsInterest': 'required',
      'assets.1.clientsInterest': 'percent',
    });
    const result = validateStep(
      'asset',
      { ...data, assets: [{ type: 'savings', typeoOther: 'stale', valueOfRealisable: 5, clientsInterest: 100 }] },
      lawyer,
    );
    expect(result.success && result.output.assets).toEqual([{ type: 'savings', valueOfRealisable: 5, clientsInterest: 100 }]);
  });
});

describe('independent advice', () => {
  it('requires a solicitor unless the client uses their own', () => {
    expect(fields(validateStep('independent', { solicitorId: null }, customer))).toEqual({ solicitorId: 'required' });
    expect(validateStep('independent', { solicitorId: 4 }, customer).success).toBe(true);
    expect(validateStep('independent', { useOwnSolicitor: true, solicitorId: 4 }, customer)).toEqual({
      success: true,
      output: { useOwnSolicitor: true },
    });
  });
  it('asks the lawyer to tick consent and authorised', () => {
    expect(fields(validateStep('independent', { solicitorId: 4, consent: false }, lawyer))).toEqual({
      consent: 'required',
      authorised: 'required',
    });
    expect(validateStep('independent', { solicitorId: 4, consent: true, authorised: true }, lawyer).success).toBe(true);
  });
});

describe('bad input', () => {
  const inputs: unknown[] = [
    undefined,
    null,
    0,
    'x',
    [],
    [1, 2],
    true,
    { addressHistory: [null, 1, 'x', [], { date: 5 }] },
    { assets: {}, documents: 'x' },
    Object.create(null),
    { status: { toString: null } },
  ];
  it.each(journeySteps)('never throws for %s', (step) => {
    for (const input of inputs) {
      for (const context of [lawyer, customer]) {
        const result = validateStep(step, input, context);
        expect(typeof result.success).toBe('boolean');
      }
    }
  });
  it('answers a non-object with a root code, and an empty step with its required fields', () => {
    expect(validateStep('client', 'x', customer)).toEqual({ success: false, fields: { _: 'invalid' } });
    expect(validateStep('client', null, customer)).toEqual({ success: false, fields: { clientAgree: 'required' } });
  });
  it('survives a throwing getter', () => {
    const hostile = Object.defineProperty({}, 'firstName', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(validateStep('personal', hostile, lawyer)).toEqual({ success: false, fields: { _: 'invalid' } });
  });
});
