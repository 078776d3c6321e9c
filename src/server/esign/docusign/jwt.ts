import { sign } from 'node:crypto';
import type { DocusignConfig } from '../../config';
import { ProviderRefused, ProviderUnavailable } from '../provider';
import { exchange, jsonOf } from './network';

/** DocuSign's scopes for acting as the configured user: sending and signing envelopes on their behalf. */
export const JWT_SCOPE = 'signature impersonation';
/** How long an assertion is good for: DocuSign takes at most an hour. */
const ASSERTION_SECONDS = 3600;
/** A token is asked for again this long before DocuSign says it ends (a call in flight must not outlive it). */
const REFRESH_MARGIN_MS = 5 * 60_000;

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * The JWT bearer assertion of DocuSign's JWT grant (RFC 7523): RS256 over the header and claims,
 * signed with the integration's RSA private key; `iss` the integration key, `sub` the user the
 * portal acts as, `aud` the authentication host (without https://), `scope` signature impersonation.
 */
export function jwtAssertion(
  config: Pick<DocusignConfig, 'integrationKey' | 'userId' | 'oauthBase' | 'privateKey'>,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const header = { alg: 'RS256', typ: 'JWT' };
  const claims = {
    iss: config.integrationKey,
    sub: config.userId,
    aud: new URL(config.oauthBase).host,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_SECONDS,
    scope: JWT_SCOPE,
  };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = sign('RSA-SHA256', Buffer.from(signingInput), config.privateKey);
  return `${signingInput}.${base64url(signature)}`;
}

interface CachedToken {
  token: string;
  /** When to ask for a new one (DocuSign's expiry less the margin), in ms since the epoch. */
  renewAt: number;
}

/** One token per integration and user in this process, shared by every request (docs/decisions.md 524). */
const cache = new Map<string, CachedToken>();
const pending = new Map<string, Promise<string>>();
const cacheKey = (config: DocusignConfig) => `${config.oauthBase}|${config.integrationKey}|${config.userId}`;

/**
 * An access token for the REST API: the cached one while it has more than five minutes left, else
 * a new one from POST {oauth}/oauth/token (grant_type jwt-bearer). Callers asking at the same time
 * share one request. A token DocuSign refused (401) is dropped with `forgetAccessToken`.
 */
export async function accessToken(config: DocusignConfig): Promise<string> {
  const key = cacheKey(config);
  const cached = cache.get(key);
  if (cached && cached.renewAt > Date.now()) return cached.token;
  let request = pending.get(key);
  if (!request) {
    request = requestToken(config)
      .then(({ token, expiresInSeconds }) => {
        cache.set(key, { token, renewAt: Date.now() + expiresInSeconds * 1000 - REFRESH_MARGIN_MS });
        return token;
      })
      .finally(() => pending.delete(key));
    pending.set(key, request);
  }
  return request;
}

export function forgetAccessToken(config: DocusignConfig): void {
  cache.delete(cacheKey(config));
}

async function requestToken(config: DocusignConfig): Promise<{ token: string; expiresInSeconds: number }> {
  const url = `${config.oauthBase}/oauth/token`;
  const { status, body } = await exchange(
    `POST ${url}`,
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: jwtAssertion(config),
      }).toString(),
    },
    config.timeoutMs,
  );
  const answer = jsonOf(body);
  if (status >= 500 || status === 429) throw new ProviderUnavailable(`DocuSign's authentication service answered ${status}`);
  if (status !== 200 || typeof answer.access_token !== 'string') {
    const error = typeof answer.error === 'string' ? answer.error : `status ${status}`;
    const hint =
      error === 'consent_required'
        ? `: the user ${config.userId} must grant the integration consent once (${config.oauthBase}/oauth/auth?response_type=code&scope=${encodeURIComponent(JWT_SCOPE)}&client_id=${config.integrationKey}&redirect_uri=<a redirect URI of the integration>)`
        : '';
    throw new ProviderRefused(`DocuSign refused the JWT grant (${error})${hint}`, status, error);
  }
  const expiresInSeconds = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600;
  return { token: answer.access_token, expiresInSeconds };
}
