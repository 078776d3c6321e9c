/**
 * Runs `task` once the page is idle after its first paint, or at the latest after a second; answers
 * the cancel. For code a screen will want soon but not for its first paint.
 */
export function afterFirstPaint(task: () => void): () => void {
  const idle = globalThis.requestIdleCallback;
  if (typeof idle === 'function') {
    const handle = idle(task, { timeout: 1000 });
    return () => globalThis.cancelIdleCallback?.(handle);
  }
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
}
