// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { validateStep } from '../../../../../shared/journey/validate';
import { axeViolations } from '../../../../ui/test-axe';
import { financialStep } from './financial-step';
import { clientStep } from './client-step';
import { stepHarness } from './test-harness';

// Accessibility checks and role queries over a whole form are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => cleanup());

const journey = {
  estimationOfSettlementAmount: 250000,
  monthlyIncome: 3200.5,
  monthlyExpenditure: 2100,
  nonEssMonthlyExpenditure: 300,
  intendedHousingArrangements: 'Rent a flat near the children’s school',
};

describe('financial step', () => {
  it('renders the five fields with the audience wording; amounts use the decimal keyboard', async () => {
    const { Harness, onTouch, latest } = stepHarness(financialStep);
    render(<Harness audience="customer" />);
    for (const name of [
      'Estimated settlement amount',
      'Your monthly income',
      'Your monthly essential expenditure',
      'Your monthly non-essential expenditure',
    ]) {
      expect(screen.getByLabelText(name).getAttribute('inputmode')).toBe('decimal');
    }
    expect(screen.getByLabelText('What are your intended housing arrangements?').tagName).toBe('TEXTAREA');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Your monthly income'), '£1,200.5');
    await user.tab();
    expect(latest().monthlyIncome).toBe('1200.50');
    expect(onTouch).toHaveBeenCalledWith('monthlyIncome');
    expect(await axeViolations()).toEqual([]);
  });

  it('the lawyer is asked about their client; errors show in the field', () => {
    const { Harness } = stepHarness(financialStep);
    render(<Harness errors={{ monthlyIncome: 'Required field' }} />);
    const income = screen.getByLabelText('Your client’s monthly income');
    expect(income.getAttribute('aria-describedby')).toBe(screen.getByText('Required field').id);
  });

  it('journey → values → journey is the same data, and valid', () => {
    const values = financialStep.fromJourney(journey);
    expect(values.monthlyIncome).toBe('3200.50');
    expect(financialStep.toJourney(values)).toEqual(journey);
    expect(validateStep('financial', financialStep.toJourney(values), { audience: 'lawyer', today: new Date() }).success).toBe(
      true,
    );
    expect(financialStep.toJourney(financialStep.empty())).toEqual({});
  });

  it('repairs a bad draft field by field and refuses what is not a draft', () => {
    expect(
      financialStep.parseDraft({ monthlyIncome: 1200, monthlyExpenditure: { x: 1 }, intendedHousingArrangements: 'Stay' }),
    ).toEqual({
      ...financialStep.empty(),
      monthlyIncome: '1200',
      intendedHousingArrangements: 'Stay',
    });
    expect(financialStep.parseDraft(null)).toBeNull();
    expect(financialStep.parseDraft('x')).toBeNull();
    expect(financialStep.parseDraft([])).toBeNull();
  });
});

describe('client confirmation step', () => {
  it('is one clearly worded statement to tick', async () => {
    const user = userEvent.setup();
    const { Harness, latest, onTouch } = stepHarness(clientStep);
    render(<Harness audience="customer" errors={{ clientAgree: 'Required field' }} />);
    const box = screen.getByRole('checkbox', { name: 'I confirm the information in this application is true and complete' });
    expect(box.getAttribute('aria-describedby')).toBe(screen.getByText('Required field').id);
    await user.click(box);
    expect(latest()).toEqual({ clientAgree: true });
    await user.tab();
    expect(onTouch).toHaveBeenCalledWith('clientAgree');
    expect(clientStep.toJourney(latest())).toEqual({ clientAgree: true });
    expect(clientStep.toJourney(clientStep.empty())).toEqual({});
    expect(clientStep.fromJourney({ clientAgree: true })).toEqual({ clientAgree: true });
    expect(clientStep.parseDraft({ clientAgree: 'yes' })).toEqual({ clientAgree: false });
    expect(clientStep.parseDraft(undefined)).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });
});
