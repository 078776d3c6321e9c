// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { errorMessages } from '../../shared/rules/error-codes';
import { RouteError, SCREEN_NOT_LOADED_TITLE, SCREEN_OFFLINE_TEXT, SCREEN_OFFLINE_TITLE } from './route-error';

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

function renderFailing(error: Error) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const router = createMemoryRouter([
    {
      path: '/',
      errorElement: <RouteError />,
      lazy: async () => {
        throw error;
      },
    },
  ]);
  render(<RouterProvider router={router} />);
}

describe('the route error element (decision 400)', () => {
  it('a screen that could not be fetched offline says the device is offline, not "Unhandled error"', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderFailing(new TypeError('Failed to fetch dynamically imported module: /assets/drawdowns-page.js'));
    expect(await screen.findByRole('heading', { name: SCREEN_OFFLINE_TITLE })).toBeTruthy();
    expect(screen.getByText(SCREEN_OFFLINE_TEXT)).toBeTruthy();
    expect(screen.queryByText(/Unhandled error/)).toBeNull();
  });

  it('a chunk whose stylesheet could not be fetched offline (Vite’s preload error) says the same', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderFailing(new Error('Unable to preload CSS for /assets/modal-YJT5P0p5.css'));
    expect(await screen.findByRole('heading', { name: SCREEN_OFFLINE_TITLE })).toBeTruthy();
    expect(screen.queryByText(/Unhandled error/)).toBeNull();
  });

  it('one that could not be fetched otherwise says it may have been updated or the connection dropped: reload', async () => {
    renderFailing(new TypeError('Failed to fetch dynamically imported module: /assets/drawdowns-page.js'));
    expect(await screen.findByRole('heading', { name: SCREEN_NOT_LOADED_TITLE })).toBeTruthy();
  });

  it('a real defect reads "Unhandled error" and says what to do, with the contact details this device saved', async () => {
    localStorage.setItem(
      'brandConfig',
      JSON.stringify({
        productName: 'P',
        phone: '020 7946 0000',
        email: 'help@example.com',
        termsUrl: '',
        privacyUrl: '',
        companyName: '',
      }),
    );
    renderFailing(new Error('Cannot read properties of undefined'));
    expect(await screen.findByRole('heading', { name: errorMessages.unhandled })).toBeTruthy();
    expect(screen.getByText(/call 020 7946 0000 or email help@example.com/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});
