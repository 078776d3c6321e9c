import { useEffect, useRef, useState } from 'react';

/** A link's token checked on entry: pending, valid (with the account's email), refused, or unreachable. */
export type TokenCheck =
  { status: 'validating' } | { status: 'valid'; login: string } | { status: 'invalid' } | { status: 'unavailable' };

/**
 * Runs `check` once per token. It answers the login for a valid token, null for a refused one,
 * and throws when there is no answer (offline).
 */
export function useTokenCheck(token: string, check: (token: string) => Promise<string | null>): TokenCheck {
  const [state, setState] = useState<TokenCheck>({ status: 'validating' });
  // Read through a ref, so a new `check` function on each render never starts another check.
  const latestCheck = useRef(check);
  useEffect(() => {
    latestCheck.current = check;
  }, [check]);
  useEffect(() => {
    let current = true;
    setState({ status: 'validating' });
    latestCheck.current(token).then(
      (login) => {
        if (current) setState(login ? { status: 'valid', login } : { status: 'invalid' });
      },
      (failure: unknown) => {
        console.error(failure);
        if (current) setState({ status: 'unavailable' });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);
  return state;
}
