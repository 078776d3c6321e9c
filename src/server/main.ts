import { buildApp } from './app';
import { answerBackupRequests } from './backup/backup-requests';
import { loadConfig, type Config } from './config';
import { openDatabase } from './db/connection';
import { startEmbeddedUpkeep } from './db/embedded-upkeep';
import { DataDirLocked } from './db/data-dir-lock';
import { seedDemoData } from './seed/seed';
import { smtpTransportOptions } from './mail/smtp-options';
import { startMailSender } from './mail/sender';
import { startPushSender } from './push/sender';
import { vapidKeys } from './push/vapid';
import { startTimestamping } from './services/esign/timestamp-signed-copies';
import { startHousekeeping } from './services/housekeeping';
import { startReminders } from './services/reminders/send-due-reminders';
import { startFileHousekeeping } from './files/housekeeping';
import { DiskFileStorage, fileStorage } from './files/storage';
import { createLifecycle } from './ops/lifecycle';
import { shutDown } from './ops/shutdown';

/** Starts one server process: database (migrated), demo data on first start, mail, HTTP. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (config.seedDemo && (await seedDemoData(database.db, config)))
    console.log('Seeded the demo accounts and data (password Demo-pass-1).');
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(config.host);
  if (!loopback && (config.seedDemo || config.devMailbox)) {
    console.warn(
      `Warning: listening on ${config.host} with ${[config.seedDemo && 'demo accounts', config.devMailbox && 'the development mailbox (every reset link)'].filter(Boolean).join(' and ')} open to the network. Set NODE_ENV=production (or SEED_DEMO=0 and SMTP_URL) for a real deployment.`,
    );
  }

  await warnOfFilesLeftOnDisk(config);

  const lifecycle = createLifecycle();
  const app = await buildApp({ config, db: database.db, logger: true, lifecycle });
  const stopMail = config.smtpUrl
    ? startMailSender(database.db, {
        smtp: smtpTransportOptions(config.smtpUrl, config.smtpInsecurePlain),
        from: config.mailFrom,
        log: (msg, err) => app.log.error({ err }, msg),
      })
    : undefined;

  // Push needs no SMTP: always on. The VAPID pair is made now when the configuration gives none.
  await vapidKeys(database.db, config);
  const stopPush = startPushSender(database.db, config, { log: (msg, err) => app.log.error({ err }, msg) });

  const stopHousekeeping = startHousekeeping(database.db, (msg, err) => app.log.error({ err }, msg));
  // PGlite has no autovacuum of its own (db/embedded-upkeep.ts); PostgreSQL's server has.
  const stopUpkeep =
    database.kind === 'pglite'
      ? startEmbeddedUpkeep(database.db, { info: (msg) => app.log.info(msg), error: (msg, err) => app.log.error({ err }, msg) })
      : undefined;
  // What keeps waiting on a person is reminded of, from the database's clock (docs/decisions.md 694).
  const stopReminders = startReminders(database.db, config, (msg, err) => app.log.error({ err }, msg));
  const stopFileHousekeeping = startFileHousekeeping(database.db, fileStorage(config, database.db), (msg, err) =>
    app.log.error({ err }, msg),
  );
  // Signed copies whose time-stamping authority did not answer get a document time-stamp later.
  const stopTimestamping = config.esign.tsa
    ? startTimestamping(database.db, config, fileStorage(config, database.db), (msg, err) => app.log.error({ err }, msg))
    : undefined;

  // `npm run backup` while this server holds the embedded database's folder (docs/decisions.md 571).
  const stopBackups =
    database.kind === 'pglite'
      ? answerBackupRequests(database, {
          dataDir: config.dataDir,
          filesDir: config.filesDir,
          log: { info: (msg) => app.log.info(msg), error: (msg, err) => app.log.error({ err }, msg) },
        })
      : undefined;

  // A second signal while stopping (Ctrl-C twice) ends the process at once: the handlers are once.
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down (requests in flight get ${config.timeouts.shutdownTimeoutMs} ms)`);
    try {
      await shutDown({
        app,
        lifecycle,
        database,
        timeoutMs: config.timeouts.shutdownTimeoutMs,
        drainMs: config.timeouts.shutdownDrainMs,
        stopJobs: () => {
          stopMail?.();
          stopPush();
          stopHousekeeping();
          stopUpkeep?.();
          stopReminders();
          stopFileHousekeeping();
          stopTimestamping?.();
          // A backup under way is finished before the database is closed.
          return stopBackups?.();
        },
      });
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const filesAt = config.filesStorage === 'postgres' ? 'in PostgreSQL' : config.filesDir;
  console.log(
    `Portal ready at ${config.publicUrl} · database: ${where} · files: ${filesAt}${config.devMailbox ? ` · mailbox: ${config.publicUrl}/dev/mailbox` : ''}`,
  );
}

/**
 * Files kept in the local folder before they moved into PostgreSQL are not served from there
 * (docs/decisions.md: 352): say so at start, with the command that copies them.
 */
async function warnOfFilesLeftOnDisk(config: Config): Promise<void> {
  if (config.filesStorage !== 'postgres' || config.filesDir === 'memory://') return;
  const left = (await new DiskFileStorage(config.filesDir).keys().catch(() => [])).filter((key) => !key.endsWith('.part'));
  if (left.length > 0)
    console.warn(
      `Warning: ${left.length} file(s) in ${config.filesDir} are not served: files are kept in PostgreSQL now. Run \`npm run files:to-postgres\` once to copy them there (or set FILES_STORAGE=local).`,
    );
}

main().catch((err) => {
  // Another server holds the data folder: say who, without a stack trace.
  console.error(err instanceof DataDirLocked ? `Cannot start: ${err.message}` : err);
  process.exit(1);
});
