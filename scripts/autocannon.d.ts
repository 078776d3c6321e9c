// The part of autocannon's programmatic API the API benchmark uses (scripts/bench-api-load.ts):
// the package ships no types, and @types/autocannon describes an older major version.
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called before each request is sent; answers the request to send. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }

    interface Client {
      setRequests(requests: Request[]): void;
      /** A request is sent; its answer has come (status, bytes, milliseconds). */
      on(event: 'request', listener: () => void): this;
      on(event: 'response', listener: (status: number, bytes: number, ms: number) => void): this;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      timeout?: number;
      setupClient?: (client: Client) => void;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      requests: { total: number; average: number };
      latency: { p50: number; p99: number };
    }

    interface Instance extends PromiseLike<Result> {
      on(event: 'response', listener: (client: Client, status: number, bytes: number, ms: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
