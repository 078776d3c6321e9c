import { useEffect, useRef, useState } from 'react';

/**
 * A link's token checked on entry: pending, valid (with the account's email), refused, refused for
 * now (too many calls: 429, docs/decisions.md 550), or unreachable.
 */
export type TokenCheck =
  | { status: 'validating' }
  | { status: 'valid'; login: string }
  | { status: 'invalid' }
  | { status: 'tooMany' }
  | { status: 'unavailable' };

/** What the server answered about a link: its login, or why not. */
export type TokenAnswer = { login: string } | { refused: 'invalid' | 'tooMany' };

/** The answer of a link's check call from its status and the login it carried. */
export function tokenAnswer(status: number, login: string | undefined): TokenAnswer {
  if (status === 429) return { refused: 'tooMany' };
  return login ? { login } : { refused: 'invalid' };
}

/** Runs `check` once per token. It throws when there is no answer (offline). */
export function useTokenCheck(token: string, check: (token: string) => Promise<TokenAnswer>): TokenCheck {
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
      (answer) => {
        if (current) setState('login' in answer ? { status: 'valid', login: answer.login } : { status: answer.refused });
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
