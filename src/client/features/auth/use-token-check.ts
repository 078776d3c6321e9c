import { useEffect, useState } from 'react';

/** A link's token checked on entry: pending, valid (with the account's email), refused, or unreachable. */
export type TokenCheck =
  | { status: 'validating' }
  | { status: 'valid'; login: string }
  | { status: 'invalid' }
  | { status: 'unavailable' };

/**
 * Runs `check` once per token. It answers the login for a valid token, null for a refused one,
 * and throws when there is no answer (offline).
 */
export function useTokenCheck(token: string, check: (token: string) => Promise<string | null>): TokenCheck {
  const [state, setState] = useState<TokenCheck>({ status: 'validating' });
  useEffect(() => {
    let current = true;
    setState({ status: 'validating' });
    check(token).then(
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
    // `check` is a module-level function at every call site; the token alone decides.
  }, [token]);
  return state;
}
