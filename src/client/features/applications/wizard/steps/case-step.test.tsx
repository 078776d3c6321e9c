// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { validateStep } from '../../../../../shared/journey/validate';
import type { JourneyData } from '../../../../../shared/journey/steps';
import { axeViolations } from '../../../../ui/test-axe';
import { caseStep } from './case-step';
import { stepHarness } from './test-harness';

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
// Accessibility checks and role queries over a whole form are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => cleanup());

const journey: JourneyData['case'] = {
  caseRef: 'FD24D01234',
  associatedCaseReferences: 'FD23D00001',
  timeEstimation: '12 months',
  stageOfProceedings: 'First appointment',
  disputeLevel: 'optionB',
  yearsMarried: 14,
  settlementPrinciples: 'Equal division of the matrimonial assets',
  preNuptualAgreement: true,
  preNuptialDetails: 'Signed in 2010',
  completion: 'greater',
  feeEstimate: 45000,
  feeEstimateToReach: 30000.5,
  relevantProceedings: false,
  jurisDisputes: true,
  jurisDisputesDetails: 'Assets in France',
  maintenancePaid: true,
  thirdPartyInvolvement: false,
  settlementOffer: true,
  clientReactionDetails: 'Rejected it',
  outstandingFees: 1200,
  clientSuffered: false,
  dateToKnowMore: '2099-06-30',
};

describe('case step', () => {
  it('renders every question, the five dispute levels and the probability bands', async () => {
    const { Harness } = stepHarness(caseStep, caseStep.fromJourney(journey));
    render(<Harness />);
    for (const label of [
      'Case reference',
      'Associated case references (optional)',
      'How long is the case expected to take?',
      'What stage have the proceedings reached?',
      'How many years was your client married?',
      'What are the principles of the settlement being sought?',
      'Fee estimate (total facility amount)',
      'Fee estimate to reach settlement',
      'Outstanding legal fees',
      'Please give details of the pre-nuptial agreement',
      'Please give details of the jurisdictional disputes',
      'How did your client react to the offer?',
    ]) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    const levels = screen.getByRole('radiogroup', { name: 'How contentious is the dispute?' });
    expect(
      within(levels)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('aria-checked')),
    ).toEqual(['false', 'true', 'false', 'false', 'false']);
    expect(within(levels).getByText('Highly contentious')).toBeTruthy();
    const bands = screen.getByRole('radiogroup', { name: 'How likely is the case to reach a settlement?' });
    expect(
      within(bands)
        .getAllByRole('radio')
        .map((radio) => radio.textContent + (radio.parentElement?.textContent ?? '')),
    ).toHaveLength(2);
    for (const question of [
      'Is there a pre-nuptial agreement?',
      'Are there any other relevant proceedings?',
      'Are there any disputes about jurisdiction?',
      'Is maintenance being paid to your client?',
      'Are any third parties involved?',
      'Has a settlement offer been made?',
      'Has your client suffered any illness or condition that may affect the case?',
    ]) {
      expect(screen.getByRole('radiogroup', { name: question })).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: /When will more be known about the case.* 30\/06\/2099/ })).toBeTruthy();
    expect(screen.getByLabelText('Fee estimate to reach settlement')).toHaveProperty('value', '30000.50');
    expect(await axeViolations()).toEqual([]);
  });

  it('a details box shows only for Yes; the draft keeps its text, the journey drops it', async () => {
    const user = userEvent.setup();
    const { Harness, latest } = stepHarness(caseStep);
    render(<Harness audience="customer" />);
    expect(screen.queryByLabelText('Please give details of the illness or condition')).toBeNull();
    const suffered = screen.getByRole('radiogroup', {
      name: 'Have you suffered any illness or condition that may affect the case?',
    });
    await user.click(within(suffered).getByRole('radio', { name: 'Yes' }));
    await user.type(screen.getByLabelText('Please give details of the illness or condition'), 'Back injury');
    expect(caseStep.toJourney(latest()).clientSufferedDetails).toBe('Back injury');
    await user.click(within(suffered).getByRole('radio', { name: 'No' }));
    expect(screen.queryByLabelText('Please give details of the illness or condition')).toBeNull();
    expect(latest().clientSufferedDetails).toBe('Back injury');
    expect(caseStep.toJourney(latest())).toEqual({ clientSuffered: false });
  });

  it('numbers take digits only, amounts the decimal keyboard; errors show in the field', async () => {
    const user = userEvent.setup();
    const { Harness, latest, onTouch } = stepHarness(caseStep);
    render(<Harness errors={{ feeEstimate: 'Required field', disputeLevel: 'Required field' }} />);
    await user.type(screen.getByLabelText('How many years was your client married?'), '1x2');
    expect(latest().yearsMarried).toBe('12');
    await user.tab();
    expect(onTouch).toHaveBeenCalledWith('yearsMarried');
    const fee = screen.getByLabelText('Fee estimate (total facility amount)');
    expect(fee.getAttribute('inputmode')).toBe('decimal');
    expect(fee.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('radiogroup', { name: 'How contentious is the dispute?' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('journey → values → journey is the same data and valid', () => {
    const values = caseStep.fromJourney(journey);
    expect(caseStep.toJourney(values)).toEqual(journey);
    const result = validateStep('case', caseStep.toJourney(values), {
      audience: 'lawyer',
      today: new Date('2024-03-01T12:00:00Z'),
    });
    expect(result).toEqual({ success: true, output: expect.any(Object) });
    expect(caseStep.toJourney(caseStep.empty())).toEqual({});
    expect(caseStep.fromJourney(undefined)).toEqual(caseStep.empty());
  });

  it('repairs an older or damaged draft field by field', () => {
    const repaired = caseStep.parseDraft({
      caseRef: 'ABC',
      yearsMarried: 7,
      preNuptualAgreement: 'yes',
      settlementOffer: 'maybe',
      feeEstimate: null,
      dateToKnowMore: '2024-02-31',
      extra: 'dropped',
    });
    expect(repaired).toEqual({ ...caseStep.empty(), caseRef: 'ABC', yearsMarried: '7', preNuptualAgreement: true });
    expect(caseStep.parseDraft(42)).toBeNull();
  });
});
