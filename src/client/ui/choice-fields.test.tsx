// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { CheckboxField, RadioField, SelectField, YesNoField } from './choice-fields';
import { axeViolations } from './test-axe';

// Accessibility checks and role queries over a whole form are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => cleanup());

const colours = [
  { value: 'red', label: 'Red' },
  { value: 'green', label: 'Green' },
  { value: 'blue', label: 'Blue' },
];

describe('SelectField', () => {
  it('is a labelled native select with an empty first choice; the error is tied to it', async () => {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    const { rerender } = render(<SelectField label="Colour" value="" onValueChange={onValueChange} options={colours} />);
    const select = screen.getByLabelText('Colour');
    expect(select.tagName).toBe('SELECT');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Select', 'Red', 'Green', 'Blue']);
    await user.selectOptions(select, 'Green');
    expect(onValueChange).toHaveBeenCalledWith('green');

    const slot = document.querySelector('.field__error-slot');
    expect(slot).not.toBeNull();
    expect(slot!.textContent).toBe('');
    rerender(<SelectField label="Colour" value="" onValueChange={onValueChange} options={colours} error="Required field" />);
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(select.getAttribute('aria-describedby')).toBe(screen.getByText('Required field').id);
    expect(await axeViolations()).toEqual([]);
  });
});

function Radios({ onBlur }: { onBlur?: () => void }) {
  const [value, setValue] = useState('');
  return (
    <>
      <RadioField label="Colour" value={value} onValueChange={setValue} options={colours} onBlur={onBlur} />
      <button type="button">After</button>
    </>
  );
}

describe('RadioField', () => {
  it('is a labelled group; arrow keys move and choose; Tab leaves it and reports the blur once', async () => {
    const user = userEvent.setup();
    const onBlur = vi.fn();
    render(<Radios onBlur={onBlur} />);
    const group = screen.getByRole('radiogroup', { name: 'Colour' });
    expect(group).toBeTruthy();
    await user.click(screen.getByText('Blue'));
    expect(screen.getByRole('radio', { name: 'Blue' }).getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByRole('radio', { name: 'Red' }));
    expect(screen.getByRole('radio', { name: 'Red' }).getAttribute('aria-checked')).toBe('true');
    // Radix moves the focus on the next tick and chooses the option focused while the key is down.
    await user.keyboard('{ArrowDown>}');
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Green' }).getAttribute('aria-checked')).toBe('true'));
    await user.keyboard('{/ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Green' }));
    expect(onBlur).not.toHaveBeenCalled();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After' }));
    expect(onBlur).toHaveBeenCalledTimes(1);
    expect(await axeViolations()).toEqual([]);
  });
});

describe('YesNoField', () => {
  it('answers true or false; null shows neither chosen; the error slot describes the group', async () => {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    const { rerender } = render(<YesNoField label="Has dependants?" value={null} onValueChange={onValueChange} />);
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('aria-checked'))).toEqual(['false', 'false']);
    await user.click(screen.getByText('No'));
    expect(onValueChange).toHaveBeenLastCalledWith(false);
    rerender(<YesNoField label="Has dependants?" value={true} onValueChange={onValueChange} error="Required field" />);
    expect(screen.getByRole('radio', { name: 'Yes' }).getAttribute('aria-checked')).toBe('true');
    const group = screen.getByRole('radiogroup', { name: 'Has dependants?' });
    expect(group.getAttribute('aria-describedby')).toBe(screen.getByText('Required field').id);
    expect(await axeViolations()).toEqual([]);
  });
});

describe('CheckboxField', () => {
  it('toggles by clicking its words and with Space; blur is reported', async () => {
    const user = userEvent.setup();
    function Box({ onBlur }: { onBlur: () => void }) {
      const [checked, setChecked] = useState(false);
      return <CheckboxField label="I agree" checked={checked} onCheckedChange={setChecked} onBlur={onBlur} />;
    }
    const onBlur = vi.fn();
    render(<Box onBlur={onBlur} />);
    const box = screen.getByRole('checkbox', { name: 'I agree' });
    await user.click(screen.getByText('I agree'));
    expect(box.getAttribute('aria-checked')).toBe('true');
    box.focus();
    await user.keyboard(' ');
    expect(box.getAttribute('aria-checked')).toBe('false');
    await user.tab();
    expect(onBlur).toHaveBeenCalled();
    expect(await axeViolations()).toEqual([]);
  });
});
