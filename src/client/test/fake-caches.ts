/** Cache Storage as the worker sees it: survives the worker being stopped (unlike its variables). */
export function fakeCaches(): CacheStorage {
  const stores = new Map<string, Map<string, Response>>();
  const cacheFor = (name: string) => {
    let store = stores.get(name);
    if (!store) stores.set(name, (store = new Map()));
    const key = (request: RequestInfo | URL) => (typeof request === 'string' ? request : request.toString());
    return {
      put: async (request: RequestInfo | URL, response: Response) => void store.set(key(request), response),
      match: async (request: RequestInfo | URL) => store.get(key(request))?.clone(),
      delete: async (request: RequestInfo | URL) => store.delete(key(request)),
    } as unknown as Cache;
  };
  return {
    open: async (name: string) => cacheFor(name),
    has: async (name: string) => stores.has(name),
  } as unknown as CacheStorage;
}
