/** Reads a response body, refusing one larger than `maxBytes` (a CRL can be large; none is endless). */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new Error(`answer too large (${declared} bytes)`);
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`answer too large (over ${maxBytes} bytes)`);
    }
    parts.push(read.value);
  }
  return new Uint8Array(Buffer.concat(parts));
}

/** GET or POST with a time limit; the body's bytes, or an error saying what went wrong. */
export async function fetchBytes(
  url: string,
  options: { timeoutMs: number; maxBytes: number; body?: Uint8Array; contentType?: string },
): Promise<Uint8Array> {
  const response = await fetch(url, {
    method: options.body ? 'POST' : 'GET',
    headers: options.contentType ? { 'content-type': options.contentType } : {},
    ...(options.body ? { body: Buffer.from(options.body) } : {}),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return readLimited(response, options.maxBytes);
}
