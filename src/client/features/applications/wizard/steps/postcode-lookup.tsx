import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../../../api/client';
import { isOnline } from '../../../../api/connection';
import { normalizePostcode } from '../../../../../shared/journey/address';
import { POSTCODE_THROTTLE_MS } from '../../../../../shared/rules/ui-timings';

/** A UK postcode has at least five letters and digits ('W1 1AA'); shorter is not worth asking about. */
const POSTCODE_MIN_LENGTH = 5;

export type LookupState =
  | { status: 'idle' }
  | { status: 'loading'; postcode: string }
  | { status: 'found'; postcode: string; addresses: string[] }
  | { status: 'none'; postcode: string }
  | { status: 'failed'; postcode: string }
  | { status: 'offline' };

/** What to say about the lookup (a polite live region shows it); null when there is nothing to say. */
export function lookupMessage(state: LookupState): string | null {
  switch (state.status) {
    case 'none':
      return 'No addresses were found for this postcode. Check the postcode, or enter the address manually.';
    case 'failed':
      return 'The address lookup is not available right now. Please try again, or enter the address manually.';
    case 'offline':
      return 'You are offline: finding an address needs a connection. You can enter the address manually.';
    default:
      return null;
  }
}

function isOffline(): boolean {
  return !isOnline();
}

/**
 * Looks up the addresses at a postcode (GET /common/postcode). The postcode is normalised first
 * (upper-cased, everything but letters and digits removed) and lookups are throttled to one per
 * 500 ms (spec section 5): a lookup asked for sooner waits, and only the latest postcode asked
 * for during the wait is looked up. An answer to an older request than the latest is ignored.
 */
export function usePostcodeLookup(throttleMs: number = POSTCODE_THROTTLE_MS) {
  const [state, setState] = useState<LookupState>({ status: 'idle' });
  const lastRun = useRef(Number.NEGATIVE_INFINITY);
  const lastAsked = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<string | null>(null);
  const sequence = useRef(0);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const run = useCallback(async (postcode: string) => {
    lastRun.current = Date.now();
    lastAsked.current = postcode;
    const mine = ++sequence.current;
    if (isOffline()) {
      setState({ status: 'offline' });
      return;
    }
    setState({ status: 'loading', postcode });
    try {
      const { data } = await api.GET('/common/postcode', { params: { query: { postcode } } });
      if (!mounted.current || mine !== sequence.current) return;
      if (!data) setState({ status: 'failed', postcode });
      else if (data.addresses.length === 0) setState({ status: 'none', postcode });
      else setState({ status: 'found', postcode, addresses: data.addresses });
    } catch {
      // No answer at all: offline after all, or the server cannot be reached.
      if (!mounted.current || mine !== sequence.current) return;
      setState(isOffline() ? { status: 'offline' } : { status: 'failed', postcode });
    }
  }, []);

  /**
   * Asks for a lookup. `force` (the 'Find address' button) looks up again a postcode already asked
   * about; typing only looks up a postcode that changed.
   */
  const lookup = useCallback(
    (raw: string, force = false) => {
      const postcode = normalizePostcode(raw);
      if (postcode.length < POSTCODE_MIN_LENGTH) {
        pending.current = null;
        return;
      }
      if (!force && postcode === (pending.current ?? lastAsked.current)) return;
      const wait = lastRun.current + throttleMs - Date.now();
      if (wait <= 0 && !timer.current) {
        void run(postcode);
        return;
      }
      pending.current = postcode;
      if (timer.current) return;
      timer.current = setTimeout(
        () => {
          timer.current = null;
          const next = pending.current;
          pending.current = null;
          if (next) void run(next);
        },
        Math.max(wait, 0),
      );
    },
    [run, throttleMs],
  );

  /** Forgets the results (the postcode was cleared, or the entry switched to manual entry). */
  const reset = useCallback(() => {
    pending.current = null;
    lastAsked.current = null;
    sequence.current += 1;
    setState({ status: 'idle' });
  }, []);

  return { state, lookup, reset };
}
