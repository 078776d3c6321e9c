import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle } from '../db/connection';
import { processStart } from '../db/data-dir-lock';
import { writeEmbeddedBackup } from './write-backup';

/**
 * How `npm run backup` reaches a running server (docs/decisions.md 571): the data folder is the
 * server's while it runs (db/data-dir-lock.ts), so the command leaves a request in
 * DATA_DIR/backups and sends the server this signal; the server writes the backup there under the
 * request's name and the command moves it to where it was asked for. Only someone who may write
 * into DATA_DIR and signal the server's process can ask, and they could read the data folder
 * anyway: no network address, no password.
 */
export const BACKUP_SIGNAL = 'SIGUSR2';
export const BACKUP_REQUESTS_FOLDER = 'backups';
/**
 * Written by a server that answers the signal, naming its process (pid and start time): without it
 * the signal is not sent (it would stop an older server), nor to a pid whose start time differs (a
 * crash left the file and the pid went to another process; docs/decisions.md 583).
 */
export const BACKUP_LISTENER_FILE = 'listening.json';
export interface BackupListener {
  pid: number;
  processStart?: string;
}
const REQUEST = /^([A-Za-z0-9-]{1,80})\.request$/;

export const requestsFolder = (dataDir: string) => path.join(dataDir, BACKUP_REQUESTS_FOLDER);
export const requestFile = (dataDir: string, id: string) => path.join(requestsFolder(dataDir), `${id}.request`);
export const failureFile = (dataDir: string, id: string) => path.join(requestsFolder(dataDir), `${id}.failed`);
export const answerFolder = (dataDir: string, id: string) => path.join(requestsFolder(dataDir), id);

interface BackupAnswerOptions {
  dataDir: string;
  filesDir: string;
  log: { info(message: string): void; error(message: string, error: unknown): void };
}

/** The server's side: answers every waiting request on the signal, one backup at a time. */
export function answerBackupRequests(handle: DatabaseHandle, options: BackupAnswerOptions): () => Promise<void> {
  const folder = requestsFolder(options.dataDir);
  fs.mkdirSync(folder, { recursive: true });
  // A backup cut short by a stop or a crash of this folder's server: only it writes them.
  for (const name of fs.readdirSync(folder))
    if (name.endsWith('.partial')) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
  const listener = path.join(folder, BACKUP_LISTENER_FILE);
  const me: BackupListener = { pid: process.pid, processStart: processStart(process.pid) };
  fs.writeFileSync(listener, JSON.stringify(me));
  let queue = Promise.resolve();
  const onSignal = () => {
    queue = queue
      .then(() => answerWaiting(handle, options))
      .catch((error) => options.log.error('a backup request failed', error));
  };
  process.on(BACKUP_SIGNAL, onSignal);
  // Stopping: no new requests; a backup under way is finished before the database is closed.
  return async () => {
    process.off(BACKUP_SIGNAL, onSignal);
    fs.rmSync(listener, { force: true });
    await queue;
  };
}

async function answerWaiting(handle: DatabaseHandle, options: BackupAnswerOptions): Promise<void> {
  for (const name of fs.readdirSync(requestsFolder(options.dataDir))) {
    const id = REQUEST.exec(name)?.[1];
    if (!id) continue;
    fs.rmSync(requestFile(options.dataDir, id), { force: true });
    try {
      const manifest = await writeEmbeddedBackup(handle, options.filesDir, answerFolder(options.dataDir, id));
      options.log.info(`backup ${id} written: the database and ${manifest.files.length} file(s) as at ${manifest.createdAt}`);
    } catch (error) {
      options.log.error(`backup ${id} failed`, error);
      fs.writeFileSync(failureFile(options.dataDir, id), error instanceof Error ? error.message : String(error));
    }
  }
}
