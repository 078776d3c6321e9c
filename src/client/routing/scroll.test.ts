// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrollToTop } from './scroll';

function fakePage(startY: number) {
  const page = { y: startY, frames: [] as FrameRequestCallback[] };
  vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => page.y);
  const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, top: number) => {
    page.y = top;
  }) as typeof window.scrollTo);
  window.matchMedia = (() => ({ matches: false })) as unknown as typeof window.matchMedia;
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => page.frames.push(callback));
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {
    page.frames.length = 0;
  });
  vi.spyOn(performance, 'now').mockReturnValue(0);
  return { page, scrollTo };
}

describe('scrollToTop', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(['pointerdown', 'touchstart', 'wheel', 'keydown'])(
    'stops where the page is when the user acts (%s): a tap lands on what is under the finger',
    (type) => {
      const { page, scrollTo } = fakePage(120); // a shorter new page: its height is held
      scrollToTop(600, 900);
      page.frames.shift()!(200);
      const stoppedAt = page.y;
      expect(stoppedAt).toBeGreaterThan(0);

      window.dispatchEvent(new Event(type));
      expect(page.frames).toHaveLength(0);
      expect(document.documentElement.style.minHeight).toBe('');
      const calls = scrollTo.mock.calls.length;
      // Later input finds no animation to stop, and moves nothing.
      window.dispatchEvent(new Event(type));
      expect(scrollTo.mock.calls.length).toBe(calls);
      expect(page.y).toBe(stoppedAt);
    },
  );

  it('stops where another scroll put the page (a field brought into view), instead of taking it back', () => {
    const { page } = fakePage(900);
    scrollToTop(600, 900);
    page.frames.shift()!(100);
    page.y = 640; // scrolled by something else between two frames
    page.frames.shift()!(200);
    expect(page.y).toBe(640);
    expect(page.frames).toHaveLength(0);
  });

  it('animates from where the previous page was, holding the height so a shorter page does not jump', () => {
    let y = 120; // the new, shorter page was clamped here
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => y);
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, top: number) => {
      y = top;
    }) as typeof window.scrollTo);
    window.matchMedia = (() => ({ matches: false })) as unknown as typeof window.matchMedia;
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    vi.spyOn(performance, 'now').mockReturnValue(0);

    scrollToTop(600, 900);
    expect(document.documentElement.style.minHeight).toBe(`${900 + window.innerHeight}px`);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 900);
    frames.shift()!(300);
    expect(y).toBeGreaterThan(0);
    expect(y).toBeLessThan(900);
    frames.shift()!(600);
    expect(y).toBe(0);
    expect(document.documentElement.style.minHeight).toBe('');
  });
});
