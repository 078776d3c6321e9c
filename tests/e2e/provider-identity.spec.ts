import { expect, test } from '@playwright/test';
import { providerRoleStatement } from '../../src/shared/rules/provider-identity';
import { demo, signIn } from './support';

/**
 * The provider's legal role is one setting (docs/decisions.md 495-497): the footer states the role
 * the server is configured with, in the words every email and document uses, and by default the
 * provider is the lender its Credit Agreement names (never "not a lender").
 */

test('the footer states the configured role, in the words of the emails', async ({ page, request }, testInfo) => {
  const config = await (await request.get('/api/config')).json();
  expect(config.providerRole).toBe('lender');
  const statement = providerRoleStatement(config);
  expect(statement).toBe(`${config.companyName} is the lender of the loans made through this portal.`);

  await signIn(page, demo.customer);
  const footer = page.getByRole('contentinfo');
  await footer.scrollIntoViewIfNeeded();
  await expect(footer.locator('.footer__legal')).toHaveText(statement);
  await expect(footer).not.toContainText('not a lender');
  const width = page.viewportSize()!.width;
  await page.screenshot({ path: testInfo.outputPath(`footer-${width}.png`), fullPage: false });

  // An email signs off with the same sentence (a reset link asked for: it changes no password).
  expect((await request.post('/api/users/reset', { data: { login: demo.firm } })).status()).toBe(204);
  let text = '';
  await expect
    .poll(async () => {
      const emails = (await (await request.get('/api/dev/mailbox')).json()).emails as { to: string; text: string }[];
      text = emails.find((e) => e.to === demo.firm)?.text ?? '';
      return text;
    })
    .toBeTruthy();
  expect(text).toContain(statement);
  expect(text).not.toContain('not a lender');
});
