// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ListFilters } from './list-filters';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const query = { status: null, search: '', page: 3 };
const statuses = [{ value: 'open', label: 'Open' }] as const;

describe('the list filters', () => {
  it('search once typing settles, from the first page', () => {
    const onChange = vi.fn();
    render(<ListFilters query={query} onChange={onChange} statusOptions={statuses} searchPlaceholder="Name" />);
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: ' shah ' } });
    act(() => vi.advanceTimersByTime(399));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ search: 'shah', page: 1 });
  });

  it('search at once on Enter, and not again when the typing settles', () => {
    const onChange = vi.fn();
    render(<ListFilters query={query} onChange={onChange} statusOptions={statuses} searchPlaceholder="Name" />);
    const box = screen.getByLabelText('Search');
    fireEvent.change(box, { target: { value: 'no such client' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ search: 'no such client', page: 1 });
    // A second search for it would take the address back to it after a 'clear filters'.
    act(() => vi.advanceTimersByTime(1_000));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
