// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

const browser = vi.hoisted(() => ({
  subscribeBrowser: vi.fn(),
  unsubscribeBrowser: vi.fn(async () => undefined),
}));
vi.mock('../../pwa/push-browser', async (original) => ({
  ...(await original<typeof import('../../pwa/push-browser')>()),
  ...browser,
}));

const { turnOn } = await import('./push-calls');

const subscription = {
  toJSON: () => ({ endpoint: 'https://push.example.com/x', keys: { p256dh: 'BA', auth: 'AA' } }),
} as unknown as PushSubscription;

const json = (body: object, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The server's answers by path: the public key, then what subscribing answers. */
function serverAnswers(subscribe: Response) {
  const fetchMock = vi.fn(async (request: Request) =>
    new URL(request.url).pathname === '/api/push/public-key' ? json({ publicKey: 'BPublicKey' }) : subscribe.clone(),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('turning notifications on', () => {
  it('keeps the subscription when the server takes it', async () => {
    browser.subscribeBrowser.mockResolvedValue(subscription);
    serverAnswers(json({ id: 1, deviceLabel: 'Phone', createdAt: '2026-11-26T12:00:00Z', thisDevice: true }, 201));
    expect(await turnOn()).toEqual({ ok: true });
    expect(browser.unsubscribeBrowser).not.toHaveBeenCalled();
  });

  it('says the push service is refused, and drops the browser’s subscription, when the server will not send through it', async () => {
    browser.subscribeBrowser.mockResolvedValue(subscription);
    serverAnswers(json({ error: 'validation', fields: { endpoint: 'pushServiceUnknown' } }, 400));
    expect(await turnOn()).toEqual({ ok: false, pushService: 'refused' });
    expect(browser.unsubscribeBrowser).toHaveBeenCalledTimes(1);
  });

  it('drops the browser’s subscription but gives the server’s own answer for any other refused endpoint', async () => {
    browser.subscribeBrowser.mockResolvedValue(subscription);
    serverAnswers(json({ error: 'validation', fields: { endpoint: 'invalid' } }, 400));
    expect(await turnOn()).toMatchObject({ ok: false, kind: 'http', status: 400, fields: { endpoint: 'invalid' } });
    expect(browser.unsubscribeBrowser).toHaveBeenCalledTimes(1);
  });

  it('says the push service could not be reached when the browser cannot subscribe', async () => {
    browser.subscribeBrowser.mockRejectedValue(new DOMException('push service error', 'AbortError'));
    const fetchMock = serverAnswers(new Response(null, { status: 500 }));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await turnOn()).toEqual({ ok: false, pushService: 'unreachable' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
