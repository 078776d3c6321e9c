// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isOnline,
  probeDelay,
  PROBE_BASE_MS,
  PROBE_MAX_MS,
  reportAnswered,
  reportUnanswered,
  resetConnectionForTests,
  subscribeConnection,
  subscribeReconnected,
} from './connection';
import { api } from './client';

function setBrowserOnline(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
}

const stops: (() => void)[] = [];

beforeEach(() => {
  resetConnectionForTests();
  setBrowserOnline(true);
});

afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  resetConnectionForTests();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the connection state (decision 401)', () => {
  it('a request without an answer makes the device offline while the browser still says online; the next answer brings it back', () => {
    const changes = vi.fn();
    const back = vi.fn();
    stops.push(subscribeConnection(changes), subscribeReconnected(back));
    expect(isOnline()).toBe(true);
    reportUnanswered();
    expect(isOnline()).toBe(false);
    expect(navigator.onLine).toBe(true);
    expect(changes).toHaveBeenCalledTimes(1);
    reportUnanswered();
    expect(changes).toHaveBeenCalledTimes(1);
    reportAnswered();
    expect(isOnline()).toBe(true);
    expect(back).toHaveBeenCalledTimes(1);
  });

  it('the browser saying offline is believed at once', () => {
    const changes = vi.fn();
    stops.push(subscribeConnection(changes));
    setBrowserOnline(false);
    window.dispatchEvent(new Event('offline'));
    expect(isOnline()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(1);
  });

  it('every API call reports: thrown → offline, any HTTP answer (a 503 too) → online', async () => {
    stops.push(subscribeConnection(() => undefined));
    let answer: 'none' | 503 = 'none';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        if (answer === 'none') throw new TypeError('Failed to fetch');
        return new Response('{"error":"unavailable"}', { status: answer, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    await api.GET('/config').catch(() => undefined);
    expect(isOnline()).toBe(false);
    answer = 503;
    await api.GET('/config');
    expect(isOnline()).toBe(true);
  });

  it('offline, the server is probed with backoff until it answers; then the reconnect listeners hear it', async () => {
    vi.useFakeTimers();
    let reachable = false;
    const fetchMock = vi.fn(async () => {
      if (!reachable) throw new TypeError('Failed to fetch');
      return new Response('{}', { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    const back = vi.fn();
    stops.push(subscribeReconnected(back));
    reportUnanswered();
    expect(fetchMock).not.toHaveBeenCalled();
    // The first probe comes within PROBE_BASE_MS; each failed one waits longer for the next.
    await vi.advanceTimersByTimeAsync(PROBE_BASE_MS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0 as never])).toMatch(/\/api\/config$/);
    await vi.advanceTimersByTimeAsync(PROBE_BASE_MS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(PROBE_BASE_MS * 2);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    reachable = true;
    await vi.advanceTimersByTimeAsync(PROBE_BASE_MS * 4);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(isOnline()).toBe(true);
    expect(back).toHaveBeenCalledTimes(1);
    // Online: no more probes.
    await vi.advanceTimersByTimeAsync(PROBE_MAX_MS * 2);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it("the browser's online event is checked with a probe at once", async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    stops.push(subscribeConnection(() => undefined));
    setBrowserOnline(false);
    reportUnanswered();
    expect(fetchMock).not.toHaveBeenCalled();
    setBrowserOnline(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(isOnline()).toBe(true));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('the probe delay doubles up to its cap, with a quarter of it random', () => {
    expect(probeDelay(0, 1)).toBe(PROBE_BASE_MS);
    expect(probeDelay(0, 0)).toBe(PROBE_BASE_MS * 0.75);
    expect(probeDelay(1, 1)).toBe(PROBE_BASE_MS * 2);
    expect(probeDelay(20, 1)).toBe(PROBE_MAX_MS);
  });
});
