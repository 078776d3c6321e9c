import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { ukDateFromToday } from '../../src/shared/rules/calendar-dates';
import { axeViolations, demo, DEMO_PASSWORD, openNavigation, signIn, everyLawyerDeclarationTrue } from './support';
import { startLocalPushService, type Device, type LocalPushService } from '../api/local-push-service';

/**
 * Web push end to end. Headless Chromium cannot subscribe through a real push service, so each
 * person's device is a subscription this test makes (its own key pair and secret, an endpoint on
 * a local push service), posted with subscribePush as that person. A drawdown's approval loop then
 * notifies the right person at each step, and the server's messages are decrypted as a browser
 * would. The browser side is the client's phone: the client's message is handed to the real
 * service worker with the DevTools protocol, shown, and followed; a message for someone else, or
 * for a device signed out, shows nothing.
 */

test.describe.configure({ mode: 'serial' });
// axe is injected as a script: let it past the page's CSP, in this file only.
test.use({ bypassCSP: true });

let service: LocalPushService;
/** What the client's device was sent when the drawdown awaited them, as decrypted. */
let clientMessage: Record<string, unknown> | null = null;
let drawdownId = 0;
let adminId = 0;

test.beforeAll(async () => {
  // The API tests' push service: it checks each request's VAPID JWT and decrypts it with the device's key.
  service = await startLocalPushService();
});

test.afterAll(async () => {
  expect(service.faults).toEqual([]);
  await service.close();
});

/** What a device made here takes to subscribePush. */
const subscriptionOf = (device: Device) => ({ endpoint: device.endpoint, keys: device.keys });

/** The decrypted messages a device received, oldest first. */
const messagesOf = (device: Device) =>
  service.received
    .filter((delivery) => delivery.endpoint === device.endpoint && delivery.message)
    .map((delivery) => delivery.message!);

test.beforeEach(async ({}, testInfo) => {
  // One journey on one database: it runs once, in the phone project (390 px).
  test.skip(testInfo.project.name !== 'phone', 'the journey runs once, on the phone');
});

interface Session {
  token: string;
  userId: number;
}

async function apiSignIn(request: APIRequestContext, login: string): Promise<Session> {
  const res = await request.post('/api/auth', { data: { login, password: DEMO_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { token: body.token, userId: body.user.id };
}

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` });

async function subscribe(request: APIRequestContext, session: Session, device: Device, deviceLabel: string): Promise<number> {
  const res = await request.post('/api/push/subscriptions', {
    headers: auth(session),
    data: { ...subscriptionOf(device), deviceLabel },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function changeState(request: APIRequestContext, session: Session, id: number, data: object): Promise<void> {
  const res = await request.post(`/api/drawdowns/${id}/state`, { headers: auth(session), data });
  expect(res.status(), await res.text()).toBe(200);
}

/** The message of this kind about this drawdown, once the server has sent it (it sends every few seconds). */
async function messageFor(device: Device, kind: string, link: string): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await expect
    .poll(
      () => {
        found = messagesOf(device).find((payload) => payload.kind === kind && payload.link === link);
        return found !== undefined;
      },
      { message: `${kind} for ${link}`, timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

function kindsOf(device: Device, link: string): unknown[] {
  return messagesOf(device)
    .filter((payload) => payload.link === link)
    .map((payload) => payload.kind);
}

test('a drawdown’s approval loop notifies the right person at each step', async ({ request }) => {
  const lawyer = await apiSignIn(request, demo.lawyer);
  const admin = await apiSignIn(request, demo.admin);
  const client = await apiSignIn(request, demo.customer);
  adminId = admin.userId;
  const lawyerDevice = service.device();
  const adminDevice = service.device();
  const clientDevice = service.device();
  await subscribe(request, lawyer, lawyerDevice, 'Test lawyer phone');
  await subscribe(request, admin, adminDevice, 'Test staff tablet');
  await subscribe(request, client, clientDevice, 'Test client phone');

  // A loan of the demo client that the demo lawyer may draw down on.
  const clientLoans = (await (await request.get('/api/loans', { headers: auth(client) })).json()) as {
    items: { id: number; applicationId: number }[];
  };
  const lawyerLoans = (await (await request.get('/api/loans', { headers: auth(lawyer) })).json()) as {
    items: { id: number; applicationId: number; creditAvailable: number; abilities: { requestDrawdown: boolean } }[];
  };
  const loan = lawyerLoans.items.find(
    (item) => item.abilities.requestDrawdown && item.creditAvailable >= 10 && clientLoans.items.some((own) => own.id === item.id),
  );
  expect(loan, 'a loan of the demo client open for a drawdown').toBeTruthy();

  const created = await request.post('/api/drawdowns', {
    headers: auth(lawyer),
    data: {
      applicationId: loan!.applicationId,
      // Whole pence, divided once.
      amount: (100 + Math.floor(Math.random() * 800)) / 100,
      invoiceNumber: `INV-PUSH-${Date.now()}`,
      stageOfCase: 'Disclosure',
      materialChanges: false,
      nextHearingDate: ukDateFromToday(30),
      finalOrderDate: ukDateFromToday(180),
      reaplyAssets: 'Family home',
      expectedRepaymentDate: ukDateFromToday(365),
      lawyerDeclarations: everyLawyerDeclarationTrue(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  drawdownId = ((await created.json()) as { id: number }).id;
  const link = `/drawdowns/${drawdownId}`;

  // Requested: staff review it.
  const requested = await messageFor(adminDevice, 'drawdown-requested', link);
  expect(requested).toMatchObject({ title: 'Litigation funding', userId: admin.userId });
  expect(requested.body).toMatch(
    new RegExp(`^A lawyer requested drawdown ${drawdownId} on loan LFAMA\\d{5}: it waits for your review\\.$`),
  );

  // Staff approve: it awaits the client, and the lawyer hears of it.
  await changeState(request, admin, drawdownId, { state: 'providerApproved' });
  clientMessage = await messageFor(clientDevice, 'drawdown-awaits-client', link);
  expect(clientMessage).toMatchObject({ title: 'Litigation funding', userId: client.userId });
  expect(clientMessage.body).toMatch(
    new RegExp(`^The provider approved drawdown ${drawdownId} on loan LFAMA\\d{5}: it awaits your approval\\.$`),
  );
  await messageFor(lawyerDevice, 'drawdown-approved', link);

  // The client approves: staff pay it.
  await changeState(request, client, drawdownId, {
    state: 'customerApproved',
    clientDeclarations: {
      satisfiedWithService: true,
      satisfiedWithSolicitorFee: true,
      approvalToPayAmount: true,
      compliedWithTNC: true,
      confirmLoanBalance: true,
    },
  });
  await messageFor(adminDevice, 'drawdown-client-approved', link);

  // Paid: the lawyer hears of it.
  await changeState(request, admin, drawdownId, { state: 'paid' });
  await messageFor(lawyerDevice, 'drawdown-paid', link);

  // Each heard only of their own turn, once; every request's VAPID JWT passed the service's checks.
  expect(kindsOf(adminDevice, link)).toEqual(['drawdown-requested', 'drawdown-client-approved']);
  expect(kindsOf(clientDevice, link)).toEqual(['drawdown-awaits-client']);
  expect(kindsOf(lawyerDevice, link)).toEqual(['drawdown-approved', 'drawdown-paid']);
  expect(service.faults).toEqual([]);
});

/* ── The client's phone ───────────────────────────────────────────────────────────────────── */

/** The page's service worker, controlling it, and its registration id for the DevTools protocol. */
async function workerRegistration(page: Page, context: BrowserContext): Promise<(data: object) => Promise<void>> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
      );
    }
  });
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  return async (data: object) => {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: JSON.stringify(data) });
  };
}

interface Shown {
  title: string;
  body: string;
  tag: string;
  data: { link?: string; userId?: number } | null;
}

function shownNotifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as Shown['data'],
    }));
  });
}

/**
 * Who the page recorded as signed in, for the worker (pwa/signed-in-user.ts), or null. The record
 * is written just after the sign-in answers; a message that comes before it is dropped, the safe
 * side (decision 685), so the test waits for it as a device would have it.
 */
function recordedUser(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const stored = await (await caches.open('portal-sw-state')).match('/__portal-sw/signed-in-user');
    return stored ? stored.text() : null;
  });
}

function closeNotifications(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    (await registration.getNotifications()).forEach((n) => n.close());
  });
}

test('the client’s phone shows the message, opens the drawdown from it, and drops messages for anyone else or once signed out', async ({
  page,
  context,
}) => {
  expect(clientMessage, 'the message the server sent the client').not.toBeNull();
  await context.grantPermissions(['notifications']);
  await signIn(page, demo.customer);
  const deliver = await workerRegistration(page, context);
  await expect.poll(() => recordedUser(page)).toBe(String(clientMessage!.userId));

  // The notification, as the server sent it.
  await deliver(clientMessage!);
  await expect
    .poll(() => shownNotifications(page))
    .toEqual([
      {
        title: 'Litigation funding',
        body: clientMessage!.body,
        tag: `drawdown-awaits-client:/drawdowns/${drawdownId}`,
        data: { link: `/drawdowns/${drawdownId}`, kind: 'drawdown-awaits-client', userId: clientMessage!.userId },
      },
    ]);
  // A repeat (a reminder) replaces it rather than stacking beside it.
  await deliver({ ...clientMessage!, body: 'A reminder of the same drawdown.' });
  await expect
    .poll(async () => (await shownNotifications(page)).map((n) => n.body))
    .toEqual(['A reminder of the same drawdown.']);

  // Its click, as the browser raises it in the worker: the open window goes to the drawdown.
  await page.goto('/');
  // The app is running (its listener for the worker's message is there) on the client's start page.
  await expect(page.getByRole('heading', { level: 1, name: 'Application details' })).toBeVisible();
  const [worker] = context.serviceWorkers();
  expect(worker, 'the portal’s service worker').toBeTruthy();
  await worker!.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications();
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: notification! }));
  });
  await expect(page).toHaveURL(new RegExp(`/drawdowns/${drawdownId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Drawdown' })).toBeVisible();
  await expect.poll(() => shownNotifications(page)).toEqual([]);

  // A message whose link is no page of the portal is not shown.
  await deliver({ ...clientMessage!, link: 'https://example.com/' });
  // A message for another person (staff) is dropped; the client's next one shows, after it.
  await deliver({ ...clientMessage!, userId: adminId, body: 'For someone else.' });
  await deliver({ ...clientMessage!, link: '/drawdowns', body: 'Still for the client.' });
  await expect.poll(async () => (await shownNotifications(page)).map((n) => n.body)).toEqual(['Still for the client.']);
  await closeNotifications(page);

  // Signed out: the device shows nothing, even the client's own message.
  await openNavigation(page, test.info());
  await page.getByRole('button', { name: 'sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect.poll(() => recordedUser(page)).toBeNull();
  await deliver(clientMessage!);
  // Nothing to wait for: give the worker the time it took above, then look.
  await page.waitForTimeout(1_500);
  expect(await shownNotifications(page)).toEqual([]);
});

test('the client turns notifications on from the account menu, chooses the kinds offline, and saves them once back online', async ({
  page,
  context,
}) => {
  await signIn(page, demo.customer);
  // On the client's start page, once '/' has moved on to it (a route change closes the menu).
  await expect(page.getByRole('heading', { level: 1, name: 'Application details' })).toBeVisible();
  await openNavigation(page, test.info());
  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByText('Notifications are off for this device.')).toBeVisible();

  // Allowed, but this headless browser has no push service to subscribe with: it says so, and stays off.
  await context.grantPermissions(['notifications']);
  await page.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'This browser could not reach its notification service, so notifications are still off. Try again later, or use another browser.',
  );
  await expect(page.getByText('Notifications are off for this device.')).toBeVisible();

  // The subscription this phone would make, posted as this session: the list marks it as this device.
  const device = service.device();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const posted = await page.request.post('/api/push/subscriptions', {
    headers: { Authorization: `Bearer ${token}` },
    data: { ...subscriptionOf(device), deviceLabel: 'Chrome on Android' },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  // Every kind on, as for a person who never chose (a retry of this test finds them so too).
  const reset = await page.request.put('/api/push/preferences', {
    headers: { Authorization: `Bearer ${token}` },
    data: { kinds: ['documents-ready', 'drawdown-awaits-client'] },
  });
  expect(reset.status(), await reset.text()).toBe(200);
  await page.reload();
  const devices = page.getByRole('region', { name: 'Your devices' });
  await expect(devices.getByRole('listitem').filter({ hasText: 'This device' })).toContainText('Chrome on Android');
  expect(await axeViolations(page), '/notifications as the client').toEqual([]);

  // Offline: the choice stays on the page, and is saved once back online.
  const documents = page.getByRole('checkbox', { name: 'Documents ready to sign' });
  const drawdowns = page.getByRole('checkbox', { name: 'A drawdown awaits your approval' });
  await expect(documents).toBeChecked();
  await expect(drawdowns).toBeChecked();
  await context.setOffline(true);
  await documents.click();
  await page.getByRole('button', { name: 'Save choices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline. These settings need a connection.' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    /^Not saved: these settings need a connection\. What you chose stays on this page/,
  );
  await expect(documents).not.toBeChecked();
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Save choices' }).click();
  await expect(page.getByText('Your choices are saved.', { exact: true })).toBeVisible();
  const saved = await page.request.get('/api/push/preferences', { headers: { Authorization: `Bearer ${token}` } });
  expect(await saved.json()).toEqual({ kinds: ['drawdown-awaits-client'] });
  await expect(documents).not.toBeChecked();

  // This device is removed from the list; the client's other device (the first test's) stays.
  await devices.getByRole('button', { name: /Remove Chrome on Android/ }).click();
  await expect(devices.getByText('Chrome on Android')).toHaveCount(0);
  await expect(devices.getByRole('listitem').filter({ hasText: 'Test client phone' }).first()).toBeVisible();
  const listed = await page.request.get('/api/push/subscriptions', { headers: { Authorization: `Bearer ${token}` } });
  const labels = ((await listed.json()) as { items: { deviceLabel: string }[] }).items.map((item) => item.deviceLabel);
  expect(labels).not.toContain('Chrome on Android');
  expect(labels).toContain('Test client phone');
});
