import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/connection';
import { seedDemoData } from './db/seed';
import { startMailSender } from './mail/sender';

/** Starts one server process: database (migrated), demo data on first start, mail, HTTP. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (config.seedDemo) await seedDemoData(database.db, config);

  const app = await buildApp({ config, db: database.db, logger: true });
  const stopMail = config.smtpUrl
    ? startMailSender(database.db, { smtpUrl: config.smtpUrl, from: config.mailFrom, log: (msg, err) => app.log.error({ err }, msg) })
    : undefined;

  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    stopMail?.();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  console.log(`Portal ready at ${config.publicUrl} · database: ${where}${config.smtpUrl || config.production ? '' : ` · mailbox: ${config.publicUrl}/dev/mailbox`}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
