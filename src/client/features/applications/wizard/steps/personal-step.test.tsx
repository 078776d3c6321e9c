// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { validateStep } from '../../../../../shared/journey/validate';
import type { JourneyData } from '../../../../../shared/journey/steps';
import { axeViolations } from '../../../../ui/test-axe';
import { personalStep, type PersonalValues } from './personal-step';
import { stepHarness } from './test-harness';

// Accessibility checks and role queries over a whole form are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const journey: JourneyData['personal'] = {
  firstName: 'Jane',
  lastName: 'Smith',
  preferedName: 'Jo',
  email: 'jane@example.com',
  birthDayDay: 5,
  birthMonth: 3,
  birthYear: 1980,
  metClient: true,
  title: 'Mrs',
  gender: 'Female',
  nationality: 'British',
  contactNumber: '07700 900123',
  dependants: true,
  dependantsUnder18: 2,
  dependantsOther: 0,
  addressHistory: [
    { type: 'postcode', postcode: 'SW1A 1AA', address: '1 Palace Road, London', date: '2023-06-01' },
    { type: 'manually', postcode: 'LS1 4AP', house: '12', street: 'Park Row', city: 'Leeds', date: '2015-01-01' },
  ],
  status: 'employedFullTime',
  occupation: 'Teacher',
  employer: 'Leeds Academy',
  yearsWithEmployer: 6,
};

/** Answers the postcode lookup; records the postcodes asked for. */
function stubLookup(answer: (postcode: string) => Response | Promise<Response>) {
  const asked: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const postcode = url.searchParams.get('postcode') ?? '';
    asked.push(postcode);
    return answer(postcode);
  });
  vi.stubGlobal('fetch', fetchMock);
  return asked;
}

const found = (postcode: string) =>
  new Response(JSON.stringify({ postcode, addresses: ['1 High Street, London', '2 High Street, London'] }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

describe('personal step: fields', () => {
  it('renders every field with the lawyer wording; date of birth as three selects', async () => {
    const { Harness } = stepHarness(personalStep, personalStep.fromJourney(journey));
    render(<Harness />);
    for (const label of [
      'First name',
      'Last name',
      'Preferred name (optional)',
      'Email address',
      'Contact number',
      'Title',
      'Gender',
      'Nationality',
      'Occupation',
      'Employer',
      'Years with employer',
      'What is your client’s employment status?',
    ]) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    expect(screen.getByLabelText('Contact number').getAttribute('type')).toBe('tel');
    const birth = screen.getByRole('group', { name: 'Date of birth' });
    expect((within(birth).getByLabelText('Day') as HTMLSelectElement).value).toBe('5');
    expect((within(birth).getByLabelText('Month') as HTMLSelectElement).value).toBe('3');
    const years = within(within(birth).getByLabelText('Year')).getAllByRole('option');
    expect(years).toHaveLength(89); // the empty choice and 88 years
    expect(Number(years[1]!.textContent)).toBe(new Date().getFullYear() - 12);
    expect(within(screen.getByLabelText('Nationality')).getAllByRole('option')[1]!.textContent).toBe('British');
    expect(screen.getByRole('radiogroup', { name: 'Have you met your client in person?' })).toBeTruthy();
    expect(screen.getByLabelText('How many are under 18?')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Current address' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Previous address 1' })).toBeTruthy();
    expect((screen.getAllByLabelText('Address')[0] as HTMLSelectElement).value).toBe('1 Palace Road, London');
    expect((screen.getByLabelText('Street') as HTMLInputElement).value).toBe('Park Row');
  });

  it('the client is asked about themselves; the form is accessible', async () => {
    const { Harness } = stepHarness(personalStep, {
      ...personalStep.fromJourney(journey),
      addressHistory: personalStep.fromJourney(journey).addressHistory.slice(1),
    });
    render(<Harness audience="customer" />);
    expect(await axeViolations()).toEqual([]);
    expect(screen.getByRole('radiogroup', { name: 'Has your lawyer met you in person?' })).toBeTruthy();
    expect(screen.getByRole('radiogroup', { name: 'Have you got dependants?' })).toBeTruthy();
    expect(screen.getByLabelText('What is your employment status?')).toBeTruthy();
  });

  it('dependant counts show only for Yes (0 to 29)', async () => {
    const user = userEvent.setup();
    const { Harness, latest } = stepHarness(personalStep);
    render(<Harness />);
    expect(screen.queryByLabelText('How many are under 18?')).toBeNull();
    const group = screen.getByRole('radiogroup', { name: 'Has your client got dependants?' });
    await user.click(within(group).getByRole('radio', { name: 'Yes' }));
    const under = screen.getByLabelText('How many are under 18?');
    expect(
      within(under)
        .getAllByRole('option')
        .map((o) => o.textContent)
        .slice(1),
    ).toEqual(Array.from({ length: 30 }, (_, i) => String(i)));
    await user.selectOptions(under, '3');
    expect(latest().dependantsUnder18).toBe('3');
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    expect(screen.queryByLabelText('How many are under 18?')).toBeNull();
    expect(personalStep.toJourney(latest())).toEqual({ dependants: false });
  });

  it('a non-employed status hides and clears occupation, employer and years', async () => {
    const user = userEvent.setup();
    const { Harness, latest } = stepHarness(personalStep, personalStep.fromJourney(journey));
    render(<Harness />);
    await user.selectOptions(screen.getByLabelText('What is your client’s employment status?'), 'Retired');
    expect(screen.queryByLabelText('Occupation')).toBeNull();
    expect(screen.queryByLabelText('Employer')).toBeNull();
    expect(screen.queryByLabelText('Years with employer')).toBeNull();
    expect(latest()).toMatchObject({ status: 'retired', occupation: '', employer: '', yearsWithEmployer: '' });
    await user.selectOptions(screen.getByLabelText('What is your client’s employment status?'), 'Employed part time');
    expect((screen.getByLabelText('Occupation') as HTMLInputElement).value).toBe('');
  });

  it('keeps a stored application’s email read-only: the client signs in with it', () => {
    const { Harness } = stepHarness(personalStep, personalStep.fromJourney(journey));
    render(<Harness />);
    const email = screen.getByLabelText('Email address') as HTMLInputElement;
    expect(email.readOnly).toBe(true);
    expect(screen.getByText('Your client signs in with this email address.')).toBeTruthy();
  });

  it('reports touches and shows errors in the field', async () => {
    const user = userEvent.setup();
    const { Harness, onTouch } = stepHarness(personalStep, personalStep.fromJourney(journey));
    render(
      <Harness
        errors={{
          email: 'Invalid email format - please check your entry',
          'addressHistory.1.date': 'Required field',
          addressHistory: 'The address history must cover at least 2 years',
        }}
      />,
    );
    await user.click(screen.getByLabelText('First name'));
    await user.tab();
    expect(onTouch).toHaveBeenCalledWith('firstName');
    expect(screen.getByLabelText('Email address').getAttribute('aria-describedby')).toContain(
      screen.getByText('Invalid email format - please check your entry').id,
    );
    const previous = screen.getAllByRole('group', { name: 'Moved in (month and year)' })[1]!;
    expect(within(previous).getByText('Required field')).toBeTruthy();
    expect(screen.getByText('The address history must cover at least 2 years')).toBeTruthy();
  });
});

describe('personal step: address history', () => {
  it('looks up as you type, normalised and at most once per 500 ms; a found address is picked', async () => {
    // Testing Library's user-event waits on real timers between events: typing is simulated with
    // change events here, so only the lookup's own timer is faked.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const asked = stubLookup(found);
    const { Harness, latest } = stepHarness(personalStep);
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Add an address' }));
    const postcode = screen.getByLabelText('Postcode');
    expect(document.activeElement).toBe(postcode);
    for (const typed of ['s', 'sw', 'sw1', 'sw1a', 'sw1a ', 'sw1a 1', 'sw1a 1a', 'sw1a 1aa'])
      fireEvent.change(postcode, { target: { value: typed } });
    // 'SW1A1' (five characters) is looked up at once; the rest waits for the 500 ms to pass.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(asked).toEqual(['SW1A1']);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(499);
    });
    expect(asked).toEqual(['SW1A1']);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(asked).toEqual(['SW1A1', 'SW1A1AA']);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    const select = screen.getByLabelText('Address');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['2 addresses found: choose one', '1 High Street, London', '2 High Street, London']);
    fireEvent.change(select, { target: { value: '2 High Street, London' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Moved in (month and year) Month' }), { target: { value: '4' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Moved in (month and year) Year' }), { target: { value: '2020' } });
    expect(personalStep.toJourney(latest()).addressHistory).toEqual([
      { type: 'postcode', postcode: 'SW1A 1AA', address: '2 High Street, London', date: '2020-04-01' },
    ]);
    // 'Find address' looks the same postcode up again, once the 500 ms have passed.
    fireEvent.click(screen.getByRole('button', { name: 'Find address' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(asked).toEqual(['SW1A1', 'SW1A1AA']);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(asked).toEqual(['SW1A1', 'SW1A1AA', 'SW1A1AA']);
  });

  it('a failed lookup says so and offers manual entry, which works without a connection', async () => {
    const asked = stubLookup(
      () =>
        new Response(JSON.stringify({ error: 'unhandled' }), { status: 500, headers: { 'Content-Type': 'application/json' } }),
    );
    const user = userEvent.setup();
    const { Harness, latest } = stepHarness(personalStep);
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Add an address' }));
    await user.type(screen.getByLabelText('Postcode'), 'LS14AP');
    await user.click(screen.getByRole('button', { name: 'Find address' }));
    expect(await screen.findByText(/The address lookup is not available right now/)).toBeTruthy();
    expect(asked.length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Enter address manually' }));
    expect((screen.getByLabelText('Postcode') as HTMLInputElement).value).toBe('LS1 4AP');
    await user.type(screen.getByLabelText('House name or number'), '12');
    await user.type(screen.getByLabelText('Street'), 'Park Row');
    await user.type(screen.getByLabelText('Town or city'), 'Leeds');
    expect(personalStep.toJourney(latest()).addressHistory).toEqual([
      { type: 'manually', postcode: 'LS1 4AP', house: '12', street: 'Park Row', city: 'Leeds' },
    ]);
  });

  it('offline, no lookup is tried: the form says so and manual entry is offered', async () => {
    const asked = stubLookup(found);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const user = userEvent.setup();
    const { Harness } = stepHarness(personalStep);
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Add an address' }));
    await user.type(screen.getByLabelText('Postcode'), 'LS1 4AP');
    expect(await screen.findByText(/You are offline: finding an address needs a connection/)).toBeTruthy();
    expect(asked).toEqual([]);
    expect(screen.getByRole('button', { name: 'Enter address manually' })).toBeTruthy();
    vi.restoreAllMocks();
  });

  it('adds earlier addresses after the current one and removes one', async () => {
    const user = userEvent.setup();
    const { Harness, latest } = stepHarness(personalStep, personalStep.fromJourney(journey));
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Add a previous address' }));
    expect(screen.getByRole('heading', { name: 'Previous address 2' })).toBeTruthy();
    expect(latest().addressHistory).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Remove current address' }));
    expect(latest().addressHistory.map((entry) => entry.type)).toEqual(['manually', 'postcode']);
    expect((screen.getByLabelText('Street') as HTMLInputElement).value).toBe('Park Row');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a previous address' }));
  });
});

describe('personal step: conversions', () => {
  it('journey → values → journey is the same data, and valid', () => {
    const values = personalStep.fromJourney(journey);
    expect(personalStep.toJourney(values)).toEqual(journey);
    expect(
      validateStep('personal', personalStep.toJourney(values), { audience: 'lawyer', today: new Date('2025-07-01T12:00:00Z') })
        .success,
    ).toBe(true);
    expect(personalStep.toJourney(personalStep.empty())).toEqual({});
  });

  it('a non-employed status drops occupation, employer and years from the journey', () => {
    const values: PersonalValues = { ...personalStep.fromJourney(journey), status: 'homemaker' };
    const data = personalStep.toJourney(values);
    expect(data.occupation).toBeUndefined();
    expect(data.employer).toBeUndefined();
    expect(data.yearsWithEmployer).toBeUndefined();
  });

  it('repairs an older or damaged draft field by field', () => {
    const repaired = personalStep.parseDraft({
      firstName: 'Jane',
      birthYear: 1980,
      metClient: 'yes',
      dependants: 'perhaps',
      addressHistory: [{ type: 'manually', postcode: 'LS1 4AP', date: '2015-01-01' }, 'junk', { postcode: 7 }],
      status: null,
    });
    expect(repaired).toEqual({
      ...personalStep.empty(),
      firstName: 'Jane',
      birthYear: '1980',
      metClient: true,
      addressHistory: [
        { type: 'manually', postcode: 'LS1 4AP', address: '', house: '', street: '', city: '', month: '1', year: '2015' },
        { type: 'postcode', postcode: '7', address: '', house: '', street: '', city: '', month: '', year: '' },
      ],
    });
    expect(personalStep.parseDraft({ addressHistory: 'none' })).toEqual(personalStep.empty());
    expect(personalStep.parseDraft(null)).toBeNull();
  });
});
