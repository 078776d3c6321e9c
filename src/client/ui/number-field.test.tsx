// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MoneyField, NumberField, digitsOnly, moneyInput, moneyOnLeave, parseNumberInput } from './number-field';
import { TextAreaField } from './text-area-field';
import { axeViolations } from './test-axe';

// Accessibility checks and role queries over a whole form are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => cleanup());

describe('input helpers', () => {
  it('keeps digits only, with an optional length', () => {
    expect(digitsOnly('1a2 3-4')).toBe('1234');
    expect(digitsOnly('12345', 4)).toBe('1234');
  });
  it('keeps an amount to one point and two decimals; drops £ and commas', () => {
    expect(moneyInput('£1,234.567')).toBe('1234.56');
    expect(moneyInput('12.')).toBe('12.');
    expect(moneyInput('1.2.3')).toBe('1.23');
    expect(moneyOnLeave('12.5')).toBe('12.50');
    expect(moneyOnLeave('12.')).toBe('12');
    expect(moneyOnLeave('.5')).toBe('0.50');
    expect(moneyOnLeave('12')).toBe('12');
    expect(parseNumberInput('12.50')).toBe(12.5);
    expect(parseNumberInput('')).toBeUndefined();
    expect(parseNumberInput('.')).toBeUndefined();
  });
});

function Money({ onBlur }: { onBlur?: () => void }) {
  const [value, setValue] = useState('');
  return <MoneyField label="Monthly income" value={value} onValueChange={setValue} onBlur={onBlur} />;
}

describe('NumberField and MoneyField', () => {
  it('a number field asks for the digit keyboard and drops anything else', async () => {
    const user = userEvent.setup();
    function Years() {
      const [value, setValue] = useState('');
      return <NumberField label="Years" value={value} onValueChange={setValue} maxDigits={3} />;
    }
    render(<Years />);
    const input = screen.getByLabelText('Years') as HTMLInputElement;
    expect(input.getAttribute('inputmode')).toBe('numeric');
    await user.type(input, '1a2.34');
    expect(input.value).toBe('123');
  });

  it('a money field shows £, asks for the decimal keyboard and shows two decimals once left', async () => {
    const user = userEvent.setup();
    const onBlur = vi.fn();
    render(<Money onBlur={onBlur} />);
    const input = screen.getByLabelText('Monthly income') as HTMLInputElement;
    expect(input.getAttribute('inputmode')).toBe('decimal');
    expect(screen.getByText('£')).toBeTruthy();
    await user.type(input, '1,250.5x9');
    expect(input.value).toBe('1250.59');
    await user.clear(input);
    await user.type(input, '3.5');
    await user.tab();
    expect(input.value).toBe('3.50');
    expect(onBlur).toHaveBeenCalled();
    expect(await axeViolations()).toEqual([]);
  });

  it('the error appears in the slot that was already there', () => {
    const { rerender } = render(<MoneyField label="Amount" value="" onValueChange={() => undefined} />);
    const slots = document.querySelectorAll('.field__error-slot');
    expect(slots).toHaveLength(1);
    rerender(<MoneyField label="Amount" value="" onValueChange={() => undefined} error="Required field" />);
    expect(document.querySelectorAll('.field__error-slot')[0]).toBe(slots[0]);
    expect(screen.getByLabelText('Amount').getAttribute('aria-describedby')).toBe(screen.getByText('Required field').id);
  });
});

describe('TextAreaField', () => {
  it('is labelled, cut to its maximum length, and described by its error', async () => {
    const user = userEvent.setup();
    function Box() {
      const [value, setValue] = useState('');
      return <TextAreaField label="Details" value={value} onValueChange={setValue} maxLength={5} error="Required field" />;
    }
    render(<Box />);
    const area = screen.getByLabelText('Details') as HTMLTextAreaElement;
    expect(area.tagName).toBe('TEXTAREA');
    await user.type(area, 'abcdefgh');
    expect(area.value).toBe('abcde');
    expect(area.getAttribute('aria-describedby')).toBe(screen.getByText('Required field').id);
    expect(await axeViolations()).toEqual([]);
  });
});
