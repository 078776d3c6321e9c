import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { demo, mailboxLink, signIn } from './support';

/**
 * The administration journeys at a 1024 px tablet: staff create a firm, its admin joins from the invitation and adds a
 * lawyer, who joins too; staff add, edit and delete a solicitor; staff reset a client's password.
 */

const NEW_PASSWORD = 'Joined-pass-7';

/** Each run (and retry) uses new addresses: invitations and emails are single-use. */
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** A toast's message (the toast region also repeats it for screen readers). */
const toast = (page: Page, text: string) => page.locator('.toast__message').filter({ hasText: text });

async function leaveSession(page: Page): Promise<void> {
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}

/** Follows an invitation: the landing page, 'Join platform', a password; then signed in. */
async function joinFromInvitation(page: Page, link: string, email: string): Promise<void> {
  await leaveSession(page);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Your account is ready' })).toBeVisible();
  await page.getByRole('link', { name: 'Join platform' }).click();
  await expect(page).toHaveURL(/\/sign-up\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'sign up' }).click();
  await expect(page).toHaveURL(/\/get-started$/);
}

test('staff create a firm; its admin joins and adds a lawyer, who joins', async ({ page, request }) => {
  const id = stamp();
  const firmName = `Tablet Firm ${id}`;
  const adminEmail = `firm-admin-${id}@e2e.test`;
  const lawyerEmail = `lawyer-${id}@e2e.test`;

  await signIn(page, demo.admin);
  await page.goto('/firms');
  await expect(page.getByRole('heading', { level: 1, name: 'Law firms' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'see lawyers' })).toHaveAttribute('href', '/lawyers');
  await page.getByRole('link', { name: 'add new firm' }).click();
  await expect(page).toHaveURL(/\/firms\/add$/);
  const save = page.getByRole('button', { name: 'save' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Login').fill('not an email');
  await page.getByLabel('Login').blur();
  await expect(page.getByText('Invalid email format - please check your entry')).toBeVisible();
  await page.getByLabel('Firm name').fill(firmName);
  await page.getByLabel('First name').fill('Tabitha');
  await page.getByLabel('Surname').fill('Stone');
  await page.getByLabel('Login').fill(adminEmail);
  await save.click();
  await expect(page).toHaveURL(/\/firms$/);
  await expect(toast(page, 'The law firm has been added. Its admin has been invited by email.')).toBeVisible();
  const firmLink = page.getByRole('link', { name: new RegExp(firmName) });
  await expect(firmLink).toBeVisible();
  await firmLink.click();
  await expect(page).toHaveURL(/\/firms\/\d+$/);
  const firmPath = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Firm - details' }).click();
  await expect(page.getByLabel('Firm name')).toHaveValue(firmName);
  await expect(page.getByText('Total loans offered')).toBeVisible();
  await expect(page.getByText('£0.00')).toBeVisible();

  // The firm admin joins from the email and signs in with the new password.
  const adminLink = await mailboxLink(request, adminEmail, /\/sign-up-admin\//);
  await joinFromInvitation(page, adminLink, adminEmail);
  await leaveSession(page);
  await signIn(page, adminEmail, NEW_PASSWORD);

  // Their own firm's page, and a lawyer added under it.
  await page.goto(firmPath);
  await expect(page.getByText(firmName)).toBeVisible();
  await expect(page.getByRole('button', { name: 'edit' })).toHaveCount(0);
  await page.getByRole('link', { name: 'add new lawyer' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add new Lawyer' })).toBeVisible();
  await page.getByLabel('First name').fill('Lewis');
  await page.getByLabel('Surname').fill('Grey');
  await page.getByLabel('Login').fill(lawyerEmail);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`${firmPath}$`));
  await expect(page.getByRole('link', { name: /Lewis Grey/ })).toBeVisible();
  await page.goto('/lawyers');
  await expect(page.getByRole('link', { name: /Lewis Grey/ })).toBeVisible();
  await expect(page.getByText('Total on hub')).toBeVisible();

  // The lawyer joins from their invitation.
  const lawyerLink = await mailboxLink(request, lawyerEmail, /\/sign-up-lawyer\//);
  await joinFromInvitation(page, lawyerLink, lawyerEmail);
});

test('staff add, edit and delete a solicitor', async ({ page }) => {
  const name = `Tablet Advice ${stamp()}`;
  await signIn(page, demo.admin);
  await page.goto('/solicitors');
  await expect(page.getByText('With active cases')).toBeVisible();
  await page.getByRole('link', { name: 'add new solicitor' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add new solicitor' })).toBeVisible();
  await expect(page).toHaveTitle(/^Add lawyer/);
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Required field').first()).toBeVisible();
  await page.getByLabel('Postcode').fill('LS1 4DY');
  await page.getByLabel('City').fill('Leeds');
  await page.getByLabel('Email').fill(`advice-${stamp()}@e2e.test`);
  await page.getByLabel('Contact number').fill('0113 496 0000');
  await page.getByLabel('Fee').fill('300');
  await page.getByLabel('Delivery method').fill('Video call');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/solicitors$/);
  await expect(toast(page, 'The solicitor has been added.')).toBeVisible();

  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Update solicitor' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveJSProperty('readOnly', true);
  await expect(page.getByLabel('Fee')).toHaveValue('300.00');
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Delivery method').fill('In person');
  await save.click();
  await expect(page).toHaveURL(/\/solicitors$/);
  await expect(toast(page, 'The solicitor has been saved.')).toBeVisible();

  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByLabel('Delivery method')).toHaveValue('In person');
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Are you sure you want to delete this solicitor?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/solicitors$/);
  await expect(toast(page, 'The solicitor has been deleted.')).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(name) })).toHaveCount(0);
});

test("staff reset a client's password; the email arrives", async ({ page, request }) => {
  const email = 'daniel.okafor@demo.test';
  await signIn(page, demo.admin);
  await page.goto('/clients');
  await expect(page.getByText('Registered clients')).toBeVisible();
  // Other journeys on this server add clients, so Daniel may be on a later page of the list.
  const list = page.getByRole('region', { name: 'Clients' });
  const daniel = list.getByRole('link', { name: /Daniel Okafor/ });
  for (let n = 2; n <= 10; n += 1) {
    await expect(list).not.toHaveAttribute('aria-busy', 'true');
    await expect(list.getByRole('link').first()).toBeVisible();
    if (await daniel.isVisible()) break;
    const next = page.getByRole('navigation', { name: 'Clients pages' }).getByRole('link', { name: `Page ${n}`, exact: true });
    if ((await next.count()) === 0) break;
    await next.click();
    await expect(page).toHaveURL(new RegExp(`page=${n}`));
  }
  await daniel.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit client' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Email')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Are you sure you want to reset the password of this client?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'A password reset link has been sent to the client.')).toBeVisible();
  const link = await mailboxLink(request, email, /\/reset\/validate\//);
  expect(link).toMatch(/^\/reset\/validate\//);
});

test.describe('accessibility', () => {
  const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  // axe is injected as a script: let it past the page's CSP, in this test only.
  test.use({ bypassCSP: true });

  async function violations(page: Page): Promise<string[]> {
    await page.addScriptTag({ path: axePath });
    const found = await page.evaluate(async () => {
      type Violation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };
      const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Violation[] }> } })
        .axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      });
      return result.violations;
    });
    return found.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  test('no WCAG 2.2 AA violation on the administration screens', async ({ page }) => {
    await signIn(page, demo.admin);
    for (const path of ['/firms', '/firms/add', '/lawyers', '/lawyers/add', '/solicitors', '/solicitors/add', '/clients']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await violations(page), path).toEqual([]);
    }
    // Detail screens, with the firm's details open and a form's errors shown.
    await page.goto('/firms');
    await page.getByRole('link', { name: /Harbour & Vale/ }).click();
    await page.getByRole('button', { name: 'Firm - details' }).click();
    await page.waitForLoadState('networkidle');
    expect(await violations(page), 'firm page').toEqual([]);
    await page.goto('/solicitors/add');
    await page.getByLabel('Name').fill('x');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Required field').first()).toBeVisible();
    expect(await violations(page), 'solicitor form with errors').toEqual([]);
    // Other tests add clients to the shared server, so Chris may be on any page of the list: his
    // page is opened by its id, looked up the way the screen does.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const found = await page.request.get('/api/clients?search=Walker', { headers: { authorization: `Bearer ${token}` } });
    const chris = ((await found.json()).items as { id: number; email: string }[]).find((c) => c.email === demo.customer);
    await page.goto(`/clients/${chris!.id}`);
    await expect(page.getByLabel('Day')).not.toHaveValue('');
    expect(await violations(page), 'client page').toEqual([]);
  });
});

test('what staff type in a form is kept on the tablet: a reload gives it back, and it goes once saved or left', async ({
  page,
}) => {
  const id = stamp();
  await signIn(page, demo.admin);
  await page.goto('/firms/add');
  await page.getByLabel('Firm name').fill(`Kept Firm ${id}`);
  await page.getByLabel('Surname').fill('Keeper');
  await expect(page.getByText('1 form not saved yet')).toBeVisible();

  // The page loaded anew elsewhere (the typing is on the tablet, so nothing asks): it is listed among
  // what waits on this tablet, and 'continue' gives it back on its fields.
  await page.goto('/changes');
  await expect(page.getByText('New law firm')).toBeVisible();
  await expect(page.getByText('Typed on this device, not saved yet.')).toBeVisible();
  await page.getByRole('link', { name: 'continue' }).click();
  await expect(page).toHaveURL(/\/firms\/add$/);
  await expect(page.getByLabel('Firm name')).toHaveValue(`Kept Firm ${id}`);

  await page.reload();
  await expect(page.getByLabel('Firm name')).toHaveValue(`Kept Firm ${id}`);
  await expect(page.getByLabel('Surname')).toHaveValue('Keeper');
  await expect(page.getByLabel('First name')).toHaveValue('');
  await page.getByLabel('First name').fill('Kay');
  await page.getByLabel('Login').fill(`kept-${id}@e2e.test`);
  await page.getByRole('button', { name: 'save' }).click();
  await expect(page).toHaveURL(/\/firms$/);
  await expect(page.getByText('All changes saved')).toBeVisible();
  await page.goto('/firms/add');
  await expect(page.getByLabel('Firm name')).toHaveValue('');

  // Left with 'Yes' to the spec's question: the typing is not given back.
  await page.getByLabel('Firm name').fill('Never saved');
  await expect(page.getByText('1 form not saved yet')).toBeVisible();
  await page.getByRole('link', { name: 'cancel' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/firms$/);
  await expect(page.getByText('All changes saved')).toBeVisible();
  await page.goto('/firms/add');
  await expect(page.getByLabel('Firm name')).toHaveValue('');
});
