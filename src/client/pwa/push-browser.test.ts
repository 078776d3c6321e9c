import { describe, expect, it } from 'vitest';
import { applicationServerKey, deviceLabel, isIos, pushBlock, type PushEnvironment } from './push-browser';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD_AS_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const WINDOWS_EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const LINUX_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

const capable: PushEnvironment = {
  userAgent: ANDROID_CHROME,
  standalone: false,
  hasServiceWorker: true,
  hasPushManager: true,
  hasNotification: true,
  permission: 'default',
};

describe('whether this device can take notifications', () => {
  it('can, in a browser with push whose permission is not refused', () => {
    expect(pushBlock(capable, false)).toBeNull();
    expect(pushBlock({ ...capable, permission: 'granted' }, false)).toBeNull();
  });

  it('cannot, in a browser without service workers, push or notifications', () => {
    expect(pushBlock({ ...capable, hasPushManager: false }, false)).toBe('unsupported');
    expect(pushBlock({ ...capable, hasServiceWorker: false }, false)).toBe('unsupported');
    expect(pushBlock({ ...capable, hasNotification: false, permission: null }, false)).toBe('unsupported');
  });

  it('is told how to allow them once the person refused', () => {
    expect(pushBlock({ ...capable, permission: 'denied' }, false)).toBe('denied');
  });

  it('asks iPhone and iPad users to add the portal to the home screen first, and not once they did', () => {
    const safari = { ...capable, userAgent: IPHONE_SAFARI, hasPushManager: false, hasNotification: false, permission: null };
    expect(pushBlock(safari, isIos(IPHONE_SAFARI))).toBe('ios-not-installed');
    expect(pushBlock({ ...capable, userAgent: IPHONE_SAFARI, standalone: true }, isIos(IPHONE_SAFARI))).toBeNull();
    expect(isIos(IPAD_AS_MAC, 5)).toBe(true);
    expect(isIos(IPAD_AS_MAC, 0)).toBe(false);
  });
});

describe('the name of a device in the person’s list', () => {
  it('is the browser on the system', () => {
    expect(deviceLabel(ANDROID_CHROME)).toBe('Chrome on Android');
    expect(deviceLabel(IPHONE_SAFARI)).toBe('Safari on iPhone');
    expect(deviceLabel(IPAD_AS_MAC, 5)).toBe('Safari on iPad');
    expect(deviceLabel(IPAD_AS_MAC)).toBe('Safari on Mac');
    expect(deviceLabel(WINDOWS_EDGE)).toBe('Edge on Windows');
    expect(deviceLabel(LINUX_FIREFOX)).toBe('Firefox on Linux');
    expect(deviceLabel('')).toBe('Browser');
  });
});

describe('the server’s key for the browser', () => {
  it('is the bytes of its base64url', () => {
    const bytes = Uint8Array.from({ length: 65 }, (_, index) => (index * 37) % 256);
    const key = Buffer.from(bytes).toString('base64url');
    expect(Array.from(applicationServerKey(key))).toEqual(Array.from(bytes));
  });
});
