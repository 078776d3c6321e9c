import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * For an action whose answer may come late (a save that waits for the server, up to 15 s): call
 * the returned `mark` as it starts, and ask the check it gives before the answer moves the page.
 * The check is false once the user went elsewhere meanwhile (another page or another history
 * entry, or the component is gone), so a late answer never takes them back from where they went.
 */
export function useStillHere(): () => () => boolean {
  const { key } = useLocation();
  const current = useRef(key);
  current.current = key;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  return useCallback(() => {
    const startedAt = current.current;
    return () => mounted.current && current.current === startedAt;
  }, []);
}
