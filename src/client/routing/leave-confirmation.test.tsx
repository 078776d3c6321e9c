// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { hasUnsavedChanges, LEAVE_UNSAVED_MESSAGE } from '../ui/unsaved-changes';
import { currentUrl, renderApp } from '../test/render-app';

/** /ui holds the demonstration edit form (useForm + useLeaveConfirmation). */
async function openEditForm() {
  const app = renderApp('/ui', { role: 'admin' });
  await app.findByRole('heading', { level: 1, name: 'Interface components' });
  return app;
}

function beforeUnloadPrevented(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('leaving a dirty edit form', () => {
  it('leaves without a question while the form is unchanged', async () => {
    const { user, router } = await openEditForm();
    expect(beforeUnloadPrevented()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Law firms' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Law firms' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(currentUrl(router)).toBe('/firms');
  });

  it('asks the spec’s question: No stays with the changes, Yes leaves them', async () => {
    const { user, router } = await openEditForm();
    await user.type(screen.getByLabelText('Name'), ' Jr');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Law firms' }));
    await screen.findByRole('alertdialog', { name: LEAVE_UNSAVED_MESSAGE });
    await user.click(screen.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(currentUrl(router)).toBe('/ui');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Alex Morgan Jr');

    await user.click(screen.getByRole('link', { name: 'Law firms' }));
    await screen.findByRole('alertdialog', { name: LEAVE_UNSAVED_MESSAGE });
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Law firms' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/firms');
    await waitFor(() => expect(hasUnsavedChanges()).toBe(false));
  });

  it('asks the browser to confirm closing or reloading the tab while dirty', async () => {
    const { user } = await openEditForm();
    await user.type(screen.getByLabelText('Name'), 'x');
    expect(beforeUnloadPrevented()).toBe(true);
    await user.type(screen.getByLabelText('Name'), '{Backspace}');
    expect(screen.getByText('No unsaved changes')).toBeTruthy();
    expect(beforeUnloadPrevented()).toBe(false);
  });

  it('does not ask while the form is being saved, nor after it was saved', async () => {
    const { user, router } = await openEditForm();
    await user.type(screen.getByLabelText('Name'), ' Jr');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(beforeUnloadPrevented()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Law firms' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Law firms' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(currentUrl(router)).toBe('/firms');
  });

  it('is clean once saved', async () => {
    const { user } = await openEditForm();
    await user.type(screen.getByLabelText('Name'), ' Jr');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('No unsaved changes', undefined, { timeout: 3000 })).toBeTruthy();
    // The form tells the leave guard in an effect after the render that shows it: wait for that too.
    await waitFor(() => expect(hasUnsavedChanges()).toBe(false));
    expect(beforeUnloadPrevented()).toBe(false);
  });

  it('signing out asks once, not again for the way to /sign-in', async () => {
    const { user, router } = await openEditForm();
    await user.type(screen.getByLabelText('Name'), ' Jr');
    await user.click(screen.getByRole('button', { name: 'sign out' }));
    await screen.findByRole('alertdialog', { name: LEAVE_UNSAVED_MESSAGE });
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(currentUrl(router)).toBe('/sign-in');
  });
});
