import { joinAddressParts, PostcodeUnavailable, type AddressProvider } from './provider';

/**
 * Ideal Postcodes' postcode lookup (GET /v1/postcodes/{postcode}?api_key=…). A success is 200 with
 * code 2000 and `result`, a list of addresses with line_1..line_3 and post_town; an unknown
 * postcode is 404 with code 4040 (no addresses); anything else (bad key 401, no credit 402, limits,
 * outages, a timeout, a body we cannot read) makes the lookup unavailable.
 */
export function idealPostcodesProvider(options: {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}): AddressProvider {
  const doFetch = options.fetch ?? fetch;
  return {
    async lookup(postcode) {
      const url = `${options.baseUrl}/v1/postcodes/${encodeURIComponent(postcode)}?api_key=${encodeURIComponent(options.apiKey)}`;
      let response: Response;
      let body: unknown;
      try {
        response = await doFetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: 'error',
        });
        body = await response.json().catch(() => undefined);
      } catch (error) {
        throw new PostcodeUnavailable(error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network');
      }
      const code = (body as { code?: unknown } | undefined)?.code;
      if (response.status === 404 && (code === 4040 || code === undefined)) return [];
      if (response.status !== 200 || !body || !Array.isArray((body as { result?: unknown }).result))
        throw new PostcodeUnavailable(`status ${response.status} code ${String(code)}`);
      return (body as { result: unknown[] }).result
        .map((entry) => {
          const a = (entry ?? {}) as Record<string, unknown>;
          return joinAddressParts([a.line_1, a.line_2, a.line_3, a.post_town]);
        })
        .filter((a) => a !== '');
    },
  };
}
