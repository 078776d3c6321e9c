// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { BRAND, json, renderApp } from '../test/render-app';

/**
 * /config held until the test answers it. The answer waits until the request was made: on a busy
 * machine the page may ask for it after the test has already looked at the footer.
 */
function heldConfig() {
  let respond: ((response: Response) => void) | undefined;
  return {
    handler: () => new Promise<Response>((resolve) => (respond = resolve)),
    async answer(response: Response) {
      await waitFor(() => expect(respond).toBeDefined());
      await act(async () => respond!(response));
    },
  };
}

describe('footer on a first visit (no brand settings cached yet)', () => {
  it('has its whole link row before /config answers, and fills the same places when it does', async () => {
    const config = heldConfig();
    renderApp('/applications', { role: 'lawyer', handlers: { 'GET /config': config.handler } });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    const footer = screen.getByRole('contentinfo');
    const items = within(footer).getAllByRole('listitem');
    // Four places already, holding their words invisibly: the row has its final size.
    expect(items.map((item) => item.textContent)).toEqual(['Terms and conditions', 'Privacy statement', 'Email us', 'Call us']);
    expect(within(footer).queryAllByRole('link')).toHaveLength(0);
    for (const item of items) {
      expect(item.firstElementChild?.className).toContain('footer__link--pending');
      expect(item.firstElementChild?.getAttribute('aria-hidden')).toBe('true');
    }

    await config.answer(json(200, BRAND));
    const links = await within(footer).findAllByRole('link');
    expect(links).toHaveLength(4);
    // The same list items, now holding the links: nothing was added around them.
    expect(within(footer).getAllByRole('listitem')).toEqual(items);
    expect(links.map((link) => link.closest('li'))).toEqual(items);
  });

  it('states no role before /config names the provider, then the configured one', async () => {
    const config = heldConfig();
    renderApp('/applications', { role: 'lawyer', handlers: { 'GET /config': config.handler } });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    const footer = screen.getByRole('contentinfo');
    const pending = footer.querySelector('.footer__legal')!;
    expect(pending.getAttribute('aria-hidden')).toBe('true');
    expect(pending.textContent).not.toMatch(/lender|broker/);

    await config.answer(json(200, BRAND));
    expect(
      await within(footer).findByText('Example Finance Ltd is the lender of the loans made through this portal.'),
    ).toBeTruthy();
    expect(footer.textContent).not.toContain('not a lender');
  });

  it('a credit broker keeps the spec’s words and names the lender', async () => {
    renderApp('/applications', {
      role: 'lawyer',
      handlers: {
        'GET /config': () => json(200, { ...BRAND, providerRole: 'broker', lenderName: 'Lending Partner plc' }),
      },
    });
    const footer = await screen.findByRole('contentinfo');
    expect(
      await within(footer).findByText(
        'Example Finance Ltd is a credit broker and not a lender. The loans are made by Lending Partner plc.',
      ),
    ).toBeTruthy();
  });
});
