// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as v from 'valibot';
import { hasUnsavedChanges } from './unsaved-changes';
import { TextField } from './field';
import { useForm } from './use-form';
import { renderApp } from '../test/render-app';

const schema = v.object({ name: v.string(), city: v.string() });

type Form = ReturnType<typeof useForm<'name' | 'city', typeof schema>>;

function Harness({ label, expose }: { label: string; expose?: (form: Form) => void }) {
  const form = useForm(schema, { name: 'Alex', city: '' });
  expose?.(form);
  return (
    <>
      <TextField label={`${label} name`} {...form.field('name')} />
      <TextField label={`${label} city`} {...form.field('city')} />
      <output aria-label={`${label} state`}>{form.dirty ? 'dirty' : 'clean'}</output>
    </>
  );
}

afterEach(() => cleanup());

describe('useForm reports unsaved changes', () => {
  it('is dirty while a value differs from the initial one, and clean again when it is back', async () => {
    const user = userEvent.setup();
    render(<Harness label="A" />);
    expect(hasUnsavedChanges()).toBe(false);

    await user.type(screen.getByLabelText('A city'), 'Leeds');
    expect(screen.getByLabelText('A state').textContent).toBe('dirty');
    expect(hasUnsavedChanges()).toBe(true);

    await user.clear(screen.getByLabelText('A city'));
    expect(screen.getByLabelText('A state').textContent).toBe('clean');
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('is clean after a successful submit, and dirty again on the next change', async () => {
    const user = userEvent.setup();
    let form: Form | undefined;
    render(<Harness label="A" expose={(current) => (form = current)} />);
    await user.type(screen.getByLabelText('A city'), 'York');
    expect(hasUnsavedChanges()).toBe(true);

    act(() => form?.markSubmitted());
    act(() => form?.markSaved());
    expect(hasUnsavedChanges()).toBe(false);
    expect(screen.getByLabelText('A state').textContent).toBe('clean');

    await user.type(screen.getByLabelText('A city'), 'shire');
    expect(hasUnsavedChanges()).toBe(true);
  });

  it('keeps changes typed while a submit was under way as unsaved', async () => {
    const user = userEvent.setup();
    let form: Form | undefined;
    render(<Harness label="A" expose={(current) => (form = current)} />);
    await user.type(screen.getByLabelText('A city'), 'Bath');
    act(() => form?.markSubmitted());
    await user.type(screen.getByLabelText('A name'), 'andra');
    act(() => form?.markSaved());
    expect(hasUnsavedChanges()).toBe(true);
  });

  it('does not count values loaded from elsewhere as unsaved', () => {
    let form: Form | undefined;
    render(<Harness label="A" expose={(current) => (form = current)} />);
    act(() => form?.setInitialValues({ city: 'Bristol' }));
    expect((screen.getByLabelText('A city') as HTMLInputElement).value).toBe('Bristol');
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('reports each form on its own, and clears its report when it unmounts', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <>
        <Harness key="A" label="A" />
        <Harness key="B" label="B" />
      </>,
    );
    await user.type(screen.getByLabelText('A city'), 'Hull');
    await user.type(screen.getByLabelText('B city'), 'Ely');
    await user.clear(screen.getByLabelText('B city'));
    // B is clean again, A is not.
    expect(hasUnsavedChanges()).toBe(true);

    rerender(<Harness key="B" label="B" />);
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('is what the app’s forms report: typing on /sign-in holds unsaved changes until the page is left', async () => {
    const { user } = renderApp('/sign-in');
    await user.type(await screen.findByLabelText('Email'), 'someone@example.com');
    expect(hasUnsavedChanges()).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    await screen.findByRole('heading', { level: 1, name: 'Reset password' });
    expect(hasUnsavedChanges()).toBe(false);
  });
});

describe('values loaded after the form opened', () => {
  it('fill the fields the user has not changed and keep what they typed', async () => {
    const user = userEvent.setup();
    let form: Form | undefined;
    render(<Harness label="L" expose={(f) => (form = f)} />);
    await user.type(screen.getByLabelText('L city'), 'York');
    act(() => form!.setInitialValues({ name: 'Sam', city: 'Leeds' }));
    expect((screen.getByLabelText('L name') as HTMLInputElement).value).toBe('Sam');
    expect((screen.getByLabelText('L city') as HTMLInputElement).value).toBe('York');
    // The typed city differs from the loaded one: still unsaved.
    expect(screen.getByLabelText('L state').textContent).toBe('dirty');
  });

  it('discard: what was typed no longer counts as unsaved', async () => {
    const user = userEvent.setup();
    let form: Form | undefined;
    render(<Harness label="D" expose={(f) => (form = f)} />);
    await user.type(screen.getByLabelText('D city'), 'Bath');
    expect(hasUnsavedChanges()).toBe(true);
    act(() => form!.discard());
    expect(hasUnsavedChanges()).toBe(false);
  });
});

describe('useForm shows a field’s error once it was touched (decision 436)', () => {
  const required = v.object({
    name: v.pipe(v.string(), v.nonEmpty('required')),
    city: v.pipe(v.string(), v.nonEmpty('required')),
  });
  function RequiredHarness({
    expose,
  }: {
    expose?: (form: ReturnType<typeof useForm<'name' | 'city', typeof required>>) => void;
  }) {
    const form = useForm(required, { name: '', city: '' });
    expose?.(form);
    return (
      <>
        <TextField label="Name" {...form.field('name')} />
        <TextField label="City" {...form.field('city')} />
      </>
    );
  }

  it('shows nothing when the fields are only tabbed through', async () => {
    const user = userEvent.setup();
    render(<RequiredHarness />);
    await user.click(screen.getByLabelText('Name'));
    await user.tab();
    await user.tab();
    expect(screen.queryByText('Required field')).toBeNull();
  });

  it('shows a field’s error once it is left after a change, and every error after a submit attempt', async () => {
    const user = userEvent.setup();
    let form: ReturnType<typeof useForm<'name' | 'city', typeof required>> | undefined;
    render(<RequiredHarness expose={(current) => (form = current)} />);
    await user.type(screen.getByLabelText('Name'), 'x');
    await user.clear(screen.getByLabelText('Name'));
    await user.tab();
    expect(screen.getAllByText('Required field')).toHaveLength(1);
    // Leaving the next field without changing it adds nothing.
    await user.tab();
    expect(screen.getAllByText('Required field')).toHaveLength(1);
    act(() => form?.markSubmitted());
    expect(screen.getAllByText('Required field')).toHaveLength(2);
  });
});
