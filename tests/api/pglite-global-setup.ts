import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpEmbedded, openDatabase } from '../../src/server/db/connection';

/**
 * The embedded lane's start: one in-memory database migrated once and dumped to a file, which
 * every test file's server loads (tests/api/harness.ts) instead of creating a cluster and running
 * the migrations again.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pglite-'));
  const file = path.join(dir, 'migrated.tar');
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    fs.writeFileSync(file, Buffer.from(await (await dumpEmbedded(handle)).arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('pgliteMigratedDump', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteMigratedDump: string;
  }
}
