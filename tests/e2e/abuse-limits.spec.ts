import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { LINK_CALLS_PER_LINK } from '../../src/shared/rules/rate-limits';

// A link checked more often than any person would (docs/decisions.md 550) is refused with 429 for a
// while: the page says to wait, not that the link is invalid.
test('a reset link over its limit says to wait, in the words of a refused attempt', async ({ page, request }, testInfo) => {
  const token = randomUUID();
  for (let i = 0; i < LINK_CALLS_PER_LINK; i++) {
    const res = await request.post('/api/users/reset/validate', { data: { token } });
    expect(res.status()).toBe(400);
  }
  const refused = await request.post('/api/users/reset/validate', { data: { token } });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);

  await page.goto(`/reset/validate/${token}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Update password' })).toBeVisible();
  await expect(page.getByText('Too many attempts. Please wait a few minutes and try again.')).toBeVisible();
  await expect(page.getByText('Invalid reset password token')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'update' })).toBeDisabled();
  for (const width of [390, 1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: testInfo.outputPath(`reset-link-too-many-${width}.png`), fullPage: true });
  }
});
