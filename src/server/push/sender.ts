import { sql } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../config';
import { queryRows, type Database } from '../db/connection';
import { auditEvents } from '../db/schema';
import { endpointCode } from './subscription-checks';
import { vapidKeys } from './vapid';
import { repeatInBackground } from '../background/repeat';

interface Claimed {
  id: number;
  subscription_id: number;
  user_id: number;
  payload: string;
  attempts: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How long a claimed notification is left alone before another process may try it again. */
const CLAIM_MS = 5 * 60_000;
const BATCH = 20;
/**
 * Tries per notification: with the backoff (1, 2, 4 … minutes) about two hours, after which what
 * it says is stale; the push service itself keeps it a day for a device that is offline (TTL).
 */
export const PUSH_MAX_ATTEMPTS = 8;
const TTL_SECONDS = 24 * 60 * 60;

/** 'disallowed': the endpoint no longer passes the checks a new one must pass (decision 701). */
type Outcome = 'sent' | 'gone' | 'refused' | 'failed' | 'disallowed';

/**
 * Sends the push outbox (docs/decisions.md 677-679). Rows are claimed as the mail outbox's are:
 * SKIP LOCKED and a moved next_attempt_at, so several processes never send one twice, and only
 * rows whose transaction committed are seen. Each send is encrypted (aes128gcm) and signed (VAPID)
 * by web-push, then posted with a deadline of its own, off every request's path. A push service
 * that answers 404 or 410 no longer knows the device: its subscription is removed. 400, 403 and
 * 413 will not change on a retry; anything else (5xx, 429, a timeout, no answer) is retried with
 * backoff.
 */
export async function sendDuePushes(db: Database, config: Config, log: (msg: string, err?: unknown) => void): Promise<number> {
  const claimed = await queryRows<Claimed>(
    db,
    sql`
    with claimed as (
      update push_outbox set next_attempt_at = now() + ${CLAIM_MS} * interval '1 millisecond', attempts = attempts + 1
      where id in (select id from push_outbox where sent_at is null and attempts < ${PUSH_MAX_ATTEMPTS} and next_attempt_at <= now()
                   order by id limit ${BATCH} for update skip locked)
      returning id, subscription_id, user_id, payload, attempts)
    select c.id, c.subscription_id, c.user_id, c.payload, c.attempts, s.endpoint, s.p256dh, s.auth
    from claimed c join push_subscriptions s on s.id = c.subscription_id
    order by c.id`,
  );
  if (claimed.length === 0) return 0;
  const vapid = await vapidKeys(db, config);
  const rules = { production: config.production, serviceHosts: config.push.serviceHosts };
  await Promise.all(
    claimed.map(async (push) => {
      // Checked again at each send: a subscription kept from before the push services were
      // narrowed (or from outside production) is never posted to.
      const problem = endpointCode(push.endpoint, rules);
      const outcome = problem
        ? { outcome: 'disallowed' as Outcome, error: `the endpoint is not allowed (${problem})` }
        : await send(push, { ...vapid, subject: config.push.subject }, config.push.sendTimeoutMs).catch((err: unknown) => ({
            outcome: 'failed' as Outcome,
            error: err,
          }));
      await record(db, push, outcome, log);
    }),
  );
  return claimed.length;
}

async function send(
  push: Claimed,
  vapidDetails: { subject: string; publicKey: string; privateKey: string },
  timeoutMs: number,
): Promise<{ outcome: Outcome; error?: unknown }> {
  const request = webpush.generateRequestDetails(
    { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
    push.payload,
    { vapidDetails, TTL: TTL_SECONDS, contentEncoding: 'aes128gcm' },
  );
  // fetch, not web-push's own sender: its time limit is the socket's idle time, not the whole send.
  const response = await fetch(request.endpoint, {
    method: request.method,
    // fetch counts the body's length itself.
    headers: Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => name.toLowerCase() !== 'content-length')
        .map(([name, value]) => [name, String(value)]),
    ),
    body: new Uint8Array(request.body),
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = (await response.text()).slice(0, 300);
  if (response.status >= 200 && response.status < 300) return { outcome: 'sent' };
  const error = `push service answered ${response.status}${answer ? `: ${answer}` : ''}`;
  if (response.status === 404 || response.status === 410) return { outcome: 'gone', error };
  if ([400, 403, 413].includes(response.status)) return { outcome: 'refused', error };
  return { outcome: 'failed', error };
}

async function record(
  db: Database,
  push: Claimed,
  { outcome, error }: { outcome: Outcome; error?: unknown },
  log: (msg: string, err?: unknown) => void,
): Promise<void> {
  try {
    if (outcome === 'sent') {
      await db.execute(sql`update push_outbox set sent_at = now(), last_error = null where id = ${push.id}`);
    } else if (outcome === 'gone' || outcome === 'disallowed') {
      // The subscription's other queued notifications go with it (the foreign key cascades).
      await db.transaction(async (tx) => {
        await tx.execute(sql`delete from push_subscriptions where id = ${push.subscription_id}`);
        // Audited as services/audit.ts records every change; no one acted: the push service said
        // so, or the server's own rules did.
        await tx.insert(auditEvents).values({
          actorUserId: null,
          entityType: 'pushSubscription',
          entityId: String(push.subscription_id),
          action: outcome === 'gone' ? 'removedByPushService' : 'removedAsNotAllowed',
          fromState: { userId: push.user_id },
          toState: { reason: String(error) },
        });
      });
    } else {
      const lastError = String(error instanceof Error ? (error.cause ?? error) : error).slice(0, 1000);
      // Back off: 1, 2, 4 … minutes, at most an hour; a refusal is not tried again.
      const delayMs = Math.min(60_000 * 2 ** (push.attempts - 1), 3_600_000);
      await db.execute(sql`update push_outbox set last_error = ${lastError},
        attempts = case when ${outcome === 'refused'} then ${PUSH_MAX_ATTEMPTS} else attempts end,
        next_attempt_at = now() + ${delayMs} * interval '1 millisecond' where id = ${push.id}`);
      log(`push ${push.id} not sent`, lastError);
    }
  } catch (err) {
    log(`push ${push.id}: could not record the outcome`, err);
  }
}

/**
 * Sends the push outbox every intervalMs (and once at start) until stopped. Always started: push
 * needs nothing but the database and the push services' addresses.
 */
export function startPushSender(
  db: Database,
  config: Config,
  options: { intervalMs?: number; log: (msg: string, err?: unknown) => void },
): () => void {
  return repeatInBackground({
    name: 'push sender',
    everyMs: options.intervalMs ?? 3_000,
    log: options.log,
    run: async (stopped) => {
      // A full batch: more may be due at once.
      while (!stopped() && (await sendDuePushes(db, config, options.log)) === BATCH);
    },
  });
}
