// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { json, renderApp } from '../../../test/render-app';
import { installDomShims } from '../../../test/dom-shims';
import { axeViolations } from '../../../ui/test-axe';
import { ESIGN_TEXT } from './signing-page';

vi.setConfig({ testTimeout: 20_000 });
beforeAll(installDomShims);
afterEach(() => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

const TOKEN = 'a'.repeat(43);
const titles = ['Pre-Contract Credit Information', 'Credit Agreement'];

function session(extra: Record<string, unknown> = {}) {
  return {
    envelopeId: '6f1c2a8e-0000-4000-8000-000000000001',
    applicationId: 12,
    caseRef: 'NF-2026-77',
    signerName: 'Nina Fairweather',
    signerEmail: 'n***@example.com',
    status: 'ready',
    documents: titles.map((title, i) => ({
      type: i === 0 ? 'secci' : 'loanAgreement',
      title,
      sha256: 'f'.repeat(64),
      download: { url: `/api/files/${'b'.repeat(42)}${i}`, fileName: `${title}.pdf` },
    })),
    codeExpiresAt: null,
    signedAt: null,
    loanId: null,
    kind: 'contract',
    variation: null,
    ...extra,
  };
}

async function openAll(user: ReturnType<typeof renderApp>['user']) {
  for (const title of titles) {
    const link = await screen.findByRole('link', { name: new RegExp(title) });
    // The PDF opens in a new window; jsdom does not navigate.
    link.addEventListener('click', (event) => event.preventDefault(), { once: true });
    await user.click(link);
  }
}

describe('the signing page', () => {
  it('lists the documents, emails a code, and signs with it; the markup passes axe', async () => {
    let signed = false;
    const { user, calls } = renderApp(`/esign/${TOKEN}`, {
      role: 'customer',
      handlers: {
        [`GET /esign/${TOKEN}`]: () =>
          json(200, signed ? session({ status: 'signed', signedAt: '2026-11-25T10:15:00.000Z', loanId: 3 }) : session()),
        [`POST /esign/${TOKEN}/code`]: () => json(200, { sentTo: 'n***@example.com', expiresAt: '2026-11-25T10:25:00.000Z' }),
        [`POST /esign/${TOKEN}/sign`]: () => {
          signed = true;
          return json(200, {
            applicationId: 12,
            envelopeId: session().envelopeId,
            status: 'customerAccepted',
            signedAt: '2026-11-25T10:15:00.000Z',
            loanId: 3,
            loanReference: 'LFAMA00003',
          });
        },
      },
    });
    await screen.findByRole('heading', { level: 1, name: ESIGN_TEXT.title });
    expect(screen.getByRole('heading', { level: 2, name: ESIGN_TEXT.readHeading })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);

    // Signing before reading and without a code says what is missing, and sends nothing.
    await user.click(screen.getByRole('button', { name: ESIGN_TEXT.sign }));
    expect(await screen.findByText(ESIGN_TEXT.codeMissing)).toBeTruthy();
    expect(screen.getByText(ESIGN_TEXT.notAgreed)).toBeTruthy();
    expect(screen.getByText(ESIGN_TEXT.notAllOpened)).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/sign'))).toBe(false);

    await openAll(user);
    expect(screen.getAllByText(ESIGN_TEXT.opened)).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: ESIGN_TEXT.sendCode }));
    expect(await screen.findByText(/We have emailed a code to n\*\*\*@example\.com/)).toBeTruthy();
    expect(screen.getByRole('button', { name: ESIGN_TEXT.sendNewCode })).toBeTruthy();

    await user.type(screen.getByLabelText(ESIGN_TEXT.codeLabel), '12a3456');
    expect((screen.getByLabelText(ESIGN_TEXT.codeLabel) as HTMLInputElement).value).toBe('123456');
    await user.click(screen.getByRole('checkbox', { name: ESIGN_TEXT.agreeLabel }));
    await user.click(screen.getByRole('button', { name: ESIGN_TEXT.sign }));
    await screen.findByRole('heading', { level: 1, name: ESIGN_TEXT.signedTitle });
    expect(calls.find((c) => c.path === `/esign/${TOKEN}/sign`)?.body).toEqual({ code: '123456', agree: true });
    expect(screen.getByText(/A loan has been created for this application/)).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('shows a wrong code on the code field, and too many attempts', async () => {
    let answer = { error: 'signingCodeInvalid' };
    const { user } = renderApp(`/esign/${TOKEN}`, {
      role: 'customer',
      handlers: {
        [`GET /esign/${TOKEN}`]: () => json(200, session({ codeExpiresAt: '2026-11-25T10:25:00.000Z' })),
        [`POST /esign/${TOKEN}/sign`]: () => json(answer.error === 'signingCodeAttempts' ? 429 : 400, answer),
      },
    });
    await screen.findByRole('heading', { level: 1, name: ESIGN_TEXT.title });
    await openAll(user);
    await user.type(screen.getByLabelText(ESIGN_TEXT.codeLabel), '000000');
    await user.click(screen.getByRole('checkbox', { name: ESIGN_TEXT.agreeLabel }));
    await user.click(screen.getByRole('button', { name: ESIGN_TEXT.sign }));
    expect(await screen.findByText('The code is not correct. Please check it and try again.')).toBeTruthy();
    expect(screen.getByLabelText(ESIGN_TEXT.codeLabel).getAttribute('aria-invalid')).toBe('true');

    answer = { error: 'signingCodeAttempts' };
    await user.click(screen.getByRole('button', { name: ESIGN_TEXT.sign }));
    expect(await screen.findByText('Too many wrong codes. Please ask for a new code.')).toBeTruthy();
    // A code was sent already: the button offers a new one.
    expect(screen.getByRole('button', { name: ESIGN_TEXT.sendNewCode })).toBeTruthy();
  });

  it('says plainly that signing needs a connection, and disables it while offline', async () => {
    const { user, calls } = renderApp(`/esign/${TOKEN}`, {
      role: 'customer',
      handlers: { [`GET /esign/${TOKEN}`]: () => json(200, session()) },
    });
    await screen.findByRole('heading', { level: 1, name: ESIGN_TEXT.title });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    window.dispatchEvent(new Event('offline'));
    expect(await screen.findByText(ESIGN_TEXT.offline)).toBeTruthy();
    const signButton = screen.getByRole('button', { name: ESIGN_TEXT.sign }) as HTMLButtonElement;
    const codeButton = screen.getByRole('button', { name: ESIGN_TEXT.sendCode }) as HTMLButtonElement;
    expect(signButton.disabled).toBe(true);
    expect(codeButton.disabled).toBe(true);
    await user.click(codeButton);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText(ESIGN_TEXT.offline)).toBeNull());
    expect((screen.getByRole('button', { name: ESIGN_TEXT.sign }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('explains an expired or replaced link', async () => {
    renderApp(`/esign/${TOKEN}`, {
      role: 'customer',
      handlers: { [`GET /esign/${TOKEN}`]: () => json(410, { error: 'signingLinkExpired' }) },
    });
    await screen.findByRole('heading', { level: 1, name: ESIGN_TEXT.expiredTitle });
    expect(await screen.findByText(/This signing link has expired or is no longer valid/)).toBeTruthy();
    expect(screen.getByRole('link', { name: ESIGN_TEXT.backToApplications })).toBeTruthy();
  });

  it('names a variation’s figures, and once signed the loan’s new credit with the way back to the loan', async () => {
    const variation = { loanId: 7, amount: 35_000, signedAmount: 30_000 };
    const agreement = [
      {
        type: 'loanAgreement',
        title: 'Credit Agreement (variation)',
        sha256: 'f'.repeat(64),
        download: { url: `/api/files/${'c'.repeat(43)}`, fileName: 'Credit Agreement (variation).pdf' },
      },
    ];
    const first = renderApp(`/esign/${TOKEN}`, {
      role: 'customer',
      handlers: {
        [`GET /esign/${TOKEN}`]: () => json(200, session({ kind: 'variation', variation, loanId: 7, documents: agreement })),
      },
    });
    expect(
      await screen.findByText(
        'This variation of your Credit Agreement raises the credit of your loan LFAMA00007 from £30,000.00 to £35,000.00.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: /Credit Agreement \(variation\)/ })).toBeTruthy();
    first.unmount();

    renderApp(`/esign/${TOKEN}`, {
      role: 'customer',
      handlers: {
        [`GET /esign/${TOKEN}`]: () =>
          json(
            200,
            session({
              kind: 'variation',
              status: 'signed',
              signedAt: '2026-11-25T10:15:00.000Z',
              loanId: 7,
              documents: agreement,
              variation: { ...variation, signedAmount: 35_000 },
            }),
          ),
      },
    });
    const status = await screen.findByText(/You signed the variation on/);
    expect(status.textContent).toMatch(/The credit of your loan LFAMA00007 is now £35,000\.00\.$/);
    expect(screen.getByRole('link', { name: ESIGN_TEXT.backToLoan }).getAttribute('href')).toBe('/loans/7');
  });
});
