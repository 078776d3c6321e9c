import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './connection';

/**
 * A LISTEN on one channel of the database, for a cache that must forget what another process (or
 * this one) changed (docs/decisions.md 610-611). `listening` is false while the connection that
 * listens is down or reconnecting: notifications may be lost then, so a cache must not be read.
 */
export interface NotificationListener {
  readonly listening: boolean;
  /**
   * Resolves once every notification committed before the call has been handed to `onNotify`.
   * Embedded: at once (its notifications are delivered before the committing statement returns).
   * PostgreSQL: a round trip of an empty statement on the listening connection, sent after the
   * call; the server sends a listener the notifications committed before a statement ahead of that
   * statement's answer. Concurrent calls share one round trip. Rejects while not listening.
   */
  barrier(): Promise<void>;
  close(): Promise<void>;
}

export interface ListenCallbacks {
  onNotify(payload: string): void;
  /** Called on every change of `listening` (the caller empties its cache on false). */
  onListening(listening: boolean): void;
}

/** The connection that listens names itself so, for pg_stat_activity (and the tests). */
export const LISTENER_APPLICATION_NAME = 'portal-notifications';

/** How long after losing the listening connection a new one is tried, doubling up to the most. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MOST_MS = 5_000;

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** Listens on `channel` of either database (PGlite's in-process LISTEN, or a pg connection of its own). */
export async function listenForNotifications(
  db: Database,
  channel: string,
  callbacks: ListenCallbacks,
): Promise<NotificationListener> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) return listenEmbedded(client, channel, callbacks);
  if (client instanceof pg.Pool) return listenPostgres(client.options, channel, callbacks);
  throw new Error('listenForNotifications: a database opened by db/connection.ts is needed');
}

async function listenEmbedded(client: PGlite, channel: string, callbacks: ListenCallbacks): Promise<NotificationListener> {
  const unlisten = await client.listen(channel, (payload) => callbacks.onNotify(payload));
  let listening = true;
  callbacks.onListening(true);
  return {
    get listening() {
      return listening;
    },
    barrier: () => (listening ? Promise.resolve() : Promise.reject(new Error('not listening'))),
    async close() {
      if (!listening) return;
      listening = false;
      callbacks.onListening(false);
      // The database may already be closed (a test closes it with its servers).
      await unlisten().catch(() => undefined);
    },
  };
}

function listenPostgres(poolOptions: pg.PoolConfig, channel: string, callbacks: ListenCallbacks): Promise<NotificationListener> {
  const { max: _max, min: _min, idleTimeoutMillis: _idle, ...options } = poolOptions as pg.PoolConfig & { min?: number };
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retryMs = RECONNECT_FIRST_MS;
  let retry: NodeJS.Timeout | undefined;
  // The round trip in flight, and the one queued behind it for the calls that came after it was sent.
  let inFlight: Promise<void> | undefined;
  let queued: Promise<void> | undefined;

  const setListening = (value: boolean) => {
    if (listening === value) return;
    listening = value;
    callbacks.onListening(value);
  };

  const lost = (connection: pg.Client) => {
    if (client !== connection) return;
    client = undefined;
    setListening(false);
    connection.removeAllListeners();
    connection.on('error', () => undefined);
    void connection.end().catch(() => undefined);
    if (closed) return;
    retry = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(retryMs * 2, RECONNECT_MOST_MS);
  };

  const connect = async (): Promise<void> => {
    retry = undefined;
    const connection = new pg.Client({ ...options, application_name: LISTENER_APPLICATION_NAME });
    client = connection;
    connection.on('error', () => lost(connection));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (message.channel === channel) callbacks.onNotify(message.payload ?? '');
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${channel}`);
      if (client !== connection || closed) return;
      retryMs = RECONNECT_FIRST_MS;
      setListening(true);
    } catch {
      lost(connection);
    }
  };

  const roundTrip = async (): Promise<void> => {
    const connection = client;
    if (!listening || !connection) throw new Error('not listening');
    await connection.query('');
    // Lost while waiting: what was delivered before may be incomplete.
    if (client !== connection || !listening) throw new Error('not listening');
  };

  const barrier = (): Promise<void> => {
    if (!listening) return Promise.reject(new Error('not listening'));
    if (!inFlight) {
      inFlight = roundTrip().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    }
    // One is on its way already, sent before this call: this call needs the next one.
    queued ??= inFlight
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return barrier();
      });
    return queued;
  };

  return connect().then(() => ({
    get listening() {
      return listening;
    },
    barrier,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const connection = client;
      client = undefined;
      setListening(false);
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
    },
  }));
}
