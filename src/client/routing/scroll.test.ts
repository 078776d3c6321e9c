// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrollToTop } from './scroll';

describe('scrollToTop', () => {
  afterEach(() => vi.restoreAllMocks());

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
