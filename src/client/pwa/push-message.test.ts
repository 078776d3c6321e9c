import { describe, expect, it, vi } from 'vitest';
import {
  isForSignedInUser,
  isOpenMessage,
  notificationFor,
  openPortalAt,
  parsePushMessage,
  portalPath,
  type PortalWindow,
  type PortalWindows,
  type PushMessage,
} from './push-message';

const ORIGIN = 'https://portal.example';
const message: PushMessage = {
  title: 'Litigation funding',
  body: 'A drawdown awaits your approval.',
  link: '/drawdowns/12',
  kind: 'drawdown-awaits-client',
  userId: 5,
};

describe('a notification link', () => {
  it('is followed when it is a page of the portal', () => {
    expect(portalPath('/drawdowns/12', ORIGIN)).toBe('/drawdowns/12');
    expect(portalPath('/loans/3?tab=1#top', ORIGIN)).toBe('/loans/3?tab=1#top');
    expect(portalPath('/', ORIGIN)).toBe('/');
  });

  it('is ignored when it leads to another site or is no path', () => {
    for (const link of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/drawdowns/1',
      'javascript:alert(1)',
      'drawdowns/1',
      '',
      null,
      12,
    ]) {
      expect(portalPath(link, ORIGIN)).toBeNull();
    }
  });

  it('is ignored when it is the API or a development page of the server', () => {
    expect(portalPath('/api/drawdowns/12', ORIGIN)).toBeNull();
    expect(portalPath('/api', ORIGIN)).toBeNull();
    expect(portalPath('/dev/mailbox', ORIGIN)).toBeNull();
    expect(portalPath('/devices', ORIGIN)).toBe('/devices');
  });
});

describe('a push message', () => {
  it('is read from the server’s JSON', () => {
    expect(parsePushMessage(JSON.stringify(message), ORIGIN)).toEqual(message);
  });

  it('is refused when it is not the portal’s', () => {
    expect(parsePushMessage(undefined, ORIGIN)).toBeNull();
    expect(parsePushMessage('not json', ORIGIN)).toBeNull();
    expect(parsePushMessage('null', ORIGIN)).toBeNull();
    expect(parsePushMessage(JSON.stringify({ ...message, userId: '5' }), ORIGIN)).toBeNull();
    expect(parsePushMessage(JSON.stringify({ ...message, userId: 5.5 }), ORIGIN)).toBeNull();
    expect(parsePushMessage(JSON.stringify({ ...message, body: ' ' }), ORIGIN)).toBeNull();
    expect(parsePushMessage(JSON.stringify({ ...message, link: 'https://evil.example/' }), ORIGIN)).toBeNull();
    expect(parsePushMessage(JSON.stringify({ ...message, kind: 'lottery-won' }), ORIGIN)).toBeNull();
    const { kind: _kind, ...withoutKind } = message;
    expect(parsePushMessage(JSON.stringify(withoutKind), ORIGIN)).toBeNull();
  });

  it('is shown only to the user signed in on the device', () => {
    expect(isForSignedInUser(message, 5)).toBe(true);
    expect(isForSignedInUser(message, 6)).toBe(false);
    expect(isForSignedInUser(message, null)).toBe(false);
  });

  it('becomes a notification with the manifest’s icon, its link, and a tag a repeat replaces', () => {
    const { title, options } = notificationFor(message);
    expect(title).toBe('Litigation funding');
    expect(options).toMatchObject({
      body: 'A drawdown awaits your approval.',
      icon: '/icons/icon-192.png',
      tag: 'drawdown-awaits-client:/drawdowns/12',
      renotify: true,
      data: { link: '/drawdowns/12', kind: 'drawdown-awaits-client', userId: 5 },
    });
    expect(notificationFor({ ...message, body: 'Reminder.' }).options.tag).toBe(options.tag);
  });
});

function fakeWindow(url: string, state: Partial<Pick<PortalWindow, 'focused' | 'visibilityState'>> = {}) {
  return {
    url,
    focused: state.focused ?? false,
    visibilityState: state.visibilityState ?? 'hidden',
    focus: vi.fn(async () => undefined),
    postMessage: vi.fn(),
  };
}

function fakeWindows(open: PortalWindow[]): PortalWindows & { openWindow: ReturnType<typeof vi.fn> } {
  return { matchAll: async () => open, openWindow: vi.fn(async () => null) };
}

describe('a notification’s click', () => {
  it('brings the visible window of the portal forward and opens the page in it', async () => {
    const hidden = fakeWindow(`${ORIGIN}/loans`);
    const visible = fakeWindow(`${ORIGIN}/applications`, { visibilityState: 'visible' });
    const windows = fakeWindows([hidden, visible]);
    await openPortalAt(windows, '/drawdowns/12', ORIGIN);
    expect(visible.focus).toHaveBeenCalled();
    expect(visible.postMessage).toHaveBeenCalledWith({ type: 'portal:open', path: '/drawdowns/12' });
    expect(hidden.postMessage).not.toHaveBeenCalled();
    expect(windows.openWindow).not.toHaveBeenCalled();
  });

  it('prefers the focused window, and still opens the page when focusing is refused', async () => {
    const visible = fakeWindow(`${ORIGIN}/`, { visibilityState: 'visible' });
    const focused = fakeWindow(`${ORIGIN}/loans`, { focused: true, visibilityState: 'visible' });
    focused.focus.mockRejectedValueOnce(new Error('not allowed'));
    await openPortalAt(fakeWindows([visible, focused]), '/drawdowns/12', ORIGIN);
    expect(focused.postMessage).toHaveBeenCalledWith({ type: 'portal:open', path: '/drawdowns/12' });
    expect(visible.postMessage).not.toHaveBeenCalled();
  });

  it('opens a window at the page when none of the portal is open', async () => {
    const windows = fakeWindows([fakeWindow('https://other.example/')]);
    await openPortalAt(windows, '/drawdowns/12', ORIGIN);
    expect(windows.openWindow).toHaveBeenCalledWith('/drawdowns/12');
  });

  it('does nothing for a link that is no page of the portal', async () => {
    const open = fakeWindow(`${ORIGIN}/`, { focused: true });
    const windows = fakeWindows([open]);
    await openPortalAt(windows, 'https://evil.example/', ORIGIN);
    expect(open.focus).not.toHaveBeenCalled();
    expect(open.postMessage).not.toHaveBeenCalled();
    expect(windows.openWindow).not.toHaveBeenCalled();
  });

  it('is told to a page by a message only the worker’s shape matches', () => {
    expect(isOpenMessage({ type: 'portal:open', path: '/loans' })).toBe(true);
    expect(isOpenMessage({ type: 'portal:sync' })).toBe(false);
    expect(isOpenMessage({ type: 'portal:open', path: 3 })).toBe(false);
    expect(isOpenMessage(null)).toBe(false);
  });
});
