// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { DatePicker, MonthYearField, type MonthYear } from './date-fields';
import { axeViolations } from './test-axe';

beforeAll(() => {
  // Radix Popper measures its content; jsdom has no ResizeObserver.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
// Accessibility checks and role queries over a whole form are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => cleanup());

const years = [2024, 2023, 2022].map((y) => ({ value: y, label: String(y) }));

describe('MonthYearField', () => {
  it('names each select by the question and its own word; one message for both', async () => {
    const user = userEvent.setup();
    const onBlur = vi.fn();
    function Moved() {
      const [value, setValue] = useState<MonthYear>({ month: '', year: '' });
      return (
        <>
          <MonthYearField
            label="Moved in"
            value={value}
            onValueChange={setValue}
            years={years}
            onBlur={onBlur}
            error="Required field"
          />
          <output>{`${value.month}/${value.year}`}</output>
          <button type="button">After</button>
        </>
      );
    }
    render(<Moved />);
    const month = screen.getByRole('combobox', { name: 'Moved in Month' });
    const year = screen.getByRole('combobox', { name: 'Moved in Year' });
    await user.selectOptions(month, '03 - March');
    await user.selectOptions(year, '2023');
    expect(document.querySelector('output')!.textContent).toBe('3/2023');
    expect(onBlur).not.toHaveBeenCalled();
    await user.tab();
    expect(onBlur).toHaveBeenCalledTimes(1);
    const message = screen.getByText('Required field');
    expect(month.getAttribute('aria-describedby')).toBe(message.id);
    expect(year.getAttribute('aria-describedby')).toBe(message.id);
    expect(await axeViolations()).toEqual([]);
  });

  it('never offers a month and year after the latest the rule allows (decision 437)', async () => {
    const user = userEvent.setup();
    function Bounded() {
      const [value, setValue] = useState<MonthYear>({ month: '', year: '' });
      return (
        <MonthYearField label="Moved in" value={value} onValueChange={setValue} years={years} latest={{ year: 2023, month: 3 }} />
      );
    }
    render(<Bounded />);
    const month = screen.getByRole('combobox', { name: 'Moved in Month' });
    const year = screen.getByRole('combobox', { name: 'Moved in Year' });
    const values = (select: HTMLElement, disabled: boolean) =>
      [...select.querySelectorAll('option')].filter((o) => o.value && o.disabled === disabled).map((o) => o.value);
    expect(values(year, false).every((y) => Number(y) <= 2023)).toBe(true);
    expect(values(year, true)).toEqual([]);
    await user.selectOptions(year, '2023');
    expect(values(month, true)).toEqual(['4', '5', '6', '7', '8', '9', '10', '11', '12']);
    await user.selectOptions(year, '2022');
    await user.selectOptions(month, '5');
    // May 2023 would be after March 2023: that year is offered disabled.
    expect(values(year, true)).toEqual(['2023']);
  });
});

function Picker(props: {
  min?: string;
  max?: string;
  mode?: 'day' | 'month';
  initial?: string;
  onBlur?: () => void;
  disabledWeekdays?: number[];
}) {
  const [value, setValue] = useState(props.initial ?? '');
  return (
    <>
      <DatePicker
        label="Date to know more"
        value={value}
        onValueChange={setValue}
        min={props.min}
        max={props.max}
        mode={props.mode}
        onBlur={props.onBlur}
        disabledWeekdays={props.disabledWeekdays}
        today={new Date(2024, 2, 13)}
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('DatePicker', () => {
  it('opens on the current month with the weekday header Mo to Su; arrows and Enter choose a day', async () => {
    const user = userEvent.setup();
    const onBlur = vi.fn();
    render(<Picker onBlur={onBlur} />);
    const trigger = screen.getByRole('button', { name: 'Date to know more Choose a date' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Date to know more' });
    const grid = within(dialog).getByRole('grid', { name: 'March 2024' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    // 1 March 2024 was a Friday: four empty cells before it.
    const firstRow = within(grid).getAllByRole('row')[1]!;
    expect(
      within(firstRow)
        .getAllByRole('gridcell')
        .map((td) => td.textContent),
    ).toEqual(['', '', '', '', '1', '2', '3']);
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('13 March 2024'));

    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('14 March 2024'));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('21 March 2024'));
    await user.keyboard('{End}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('24 March 2024'));
    await user.keyboard('{PageDown}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('24 April 2024'));
    await user.keyboard('{Enter}');

    expect(screen.getByTestId('value').textContent).toBe('2024-04-24');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Date to know more 24/04/2024' })).toBeTruthy();
    expect(onBlur).toHaveBeenCalled();
  });

  it('days before the minimum and disabled weekdays cannot be chosen; Escape closes', async () => {
    const user = userEvent.setup();
    render(<Picker min="2024-03-10" max="2024-05-20" disabledWeekdays={[5, 6]} />);
    await user.click(screen.getByRole('button', { name: /Date to know more/ }));
    const dialog = await screen.findByRole('dialog');
    const ninth = within(dialog).getByRole('button', { name: '9 March 2024' });
    expect(ninth.getAttribute('aria-disabled')).toBe('true');
    await user.click(ninth);
    expect(screen.getByTestId('value').textContent).toBe('');
    const saturday = within(dialog).getByRole('button', { name: '16 March 2024' });
    expect(saturday.getAttribute('aria-disabled')).toBe('true');
    // Keyboard moves stop at the minimum.
    within(dialog).getByRole('button', { name: '13 March 2024' }).focus();
    await user.keyboard('{PageUp}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('10 March 2024'));
    expect(await axeViolations()).toEqual([]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Date to know more/ }));
  });

  it('the heading opens the month view; months outside the range are disabled', async () => {
    const user = userEvent.setup();
    render(<Picker min="2024-03-10" max="2024-09-01" />);
    await user.click(screen.getByRole('button', { name: /Date to know more/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'March 2024, choose a month' }));
    const months = within(dialog).getByRole('group', { name: '2024' });
    expect(within(months).getByRole('button', { name: 'February 2024' }).getAttribute('aria-disabled')).toBe('true');
    expect(within(months).getByRole('button', { name: 'October 2024' }).getAttribute('aria-disabled')).toBe('true');
    await user.click(within(months).getByRole('button', { name: 'June 2024' }));
    expect(within(dialog).getByRole('grid', { name: 'June 2024' })).toBeTruthy();
  });

  it('always shows six weeks, so the calendar keeps its height from month to month', async () => {
    const user = userEvent.setup();
    // February 2021 starts on a Monday and has 28 days: four weeks of its own.
    render(<Picker initial="2021-02-10" />);
    await user.click(screen.getByRole('button', { name: /Date to know more/ }));
    const dialog = await screen.findByRole('dialog');
    const rows = () => within(within(dialog).getByRole('grid')).getAllByRole('row');
    expect(rows()).toHaveLength(7);
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('10 February 2021'));
    // May 2021 starts on a Saturday and spans six weeks.
    await user.keyboard('{PageDown}{PageDown}{PageDown}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('10 May 2021'));
    expect(rows()).toHaveLength(7);
    expect(await axeViolations()).toEqual([]);
  });

  it('month-only mode chooses the first of a month', async () => {
    const user = userEvent.setup();
    render(<Picker mode="month" />);
    await user.click(screen.getByRole('button', { name: /Date to know more/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('grid')).toBeNull();
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('March 2024'));
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('April 2024'));
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('2024-04-01');
    expect(screen.getByRole('button', { name: 'Date to know more April 2024' })).toBeTruthy();
  });
});
