import type { SessionUser } from '../auth/sessions';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { FileStorage } from '../files/storage';

/**
 * What every service runs with, built once per request by the route layer (routes/handler.ts
 * `serviceContext`): the database (or the transaction a caller already holds), the signed-in caller,
 * the configuration and the adapters. Services take `(ctx, input)` and know nothing of HTTP.
 */
export interface ServiceContext<Actor extends SessionUser | null = SessionUser> {
  db: Database;
  actor: Actor;
  config: Config;
  storage: FileStorage;
  /** Where the request came from: recorded with a signature (the client's approval of a drawdown). */
  origin: { address: string; device: string | null };
  /** Faults the caller cannot see but an operator should (e.g. bytes left behind). */
  logError(message: string, error: unknown): void;
}

/** A public call's context: nobody is signed in (or it does not matter who is). */
export type PublicContext = ServiceContext<SessionUser | null>;
