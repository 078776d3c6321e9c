import { expect, test } from '@playwright/test';
import { demo, signIn } from './support';

test('after a first visit the app opens with the network cut', async ({ page, context }) => {
  await signIn(page, demo.lawyer);
  // Wait until the service worker controls the page and has precached the shell.
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
      );
    }
    return registration.active?.state;
  });

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
  // A deep link never visited before opens too: the worker answers every navigation with the shell.
  await page.goto('/drawdowns');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.setOffline(false);
});

test('the web app manifest makes the portal installable', async ({ request }) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  const manifest = await res.json();
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/' });
  expect(manifest.name).toBeTruthy();
  expect(manifest.short_name).toBeTruthy();
  const sizes = manifest.icons.map((i: { sizes: string; purpose?: string }) => `${i.sizes}:${i.purpose ?? 'any'}`);
  expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']));
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status()).toBe(200);
});
