// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrollToTop } from './scroll';

/** A page whose own content is `contentHeight` tall; the document is at least its held min-height. */
function fakePage(startY: number, contentHeight = 0) {
  const page = { y: startY, frames: [] as FrameRequestCallback[] };
  const root = document.documentElement;
  vi.spyOn(root, 'scrollHeight', 'get').mockImplementation(() =>
    Math.max(contentHeight, Number.parseInt(root.style.minHeight || '0', 10)),
  );
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
      // The page keeps its height down to the view's bottom: letting it go now would clamp the
      // page, and what is under the finger would move before it lifts.
      expect(document.documentElement.style.minHeight).toBe(`${stoppedAt + window.innerHeight}px`);
      const calls = scrollTo.mock.calls.length;
      // Later input finds no animation to stop, and moves nothing.
      window.dispatchEvent(new Event(type));
      expect(scrollTo.mock.calls.length).toBe(calls);
      expect(page.y).toBe(stoppedAt);
    },
  );

  it('lets go of the held height as the user scrolls up, never moving what is in view', () => {
    const content = 100 + window.innerHeight; // the new page's own height
    const { page } = fakePage(120, content);
    scrollToTop(600, 900);
    page.frames.shift()!(200);
    window.dispatchEvent(new Event('pointerdown'));
    const root = document.documentElement;

    page.y -= 100; // the user scrolls up; what was below the view is no longer held
    window.dispatchEvent(new Event('scroll'));
    expect(root.style.minHeight).toBe(`${page.y + window.innerHeight}px`);
    page.y += 50; // and down again: the hold does not grow back
    window.dispatchEvent(new Event('scroll'));
    expect(root.style.minHeight).toBe(`${page.y - 50 + window.innerHeight}px`);

    page.y = 50; // the page's own content now reaches past the view: nothing is held
    window.dispatchEvent(new Event('scroll'));
    expect(root.style.minHeight).toBe('');
  });

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
