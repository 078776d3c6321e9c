import fs from 'node:fs';

/** How many files this test process has open. */
export const openFds = () => fs.readdirSync('/proc/self/fd').length;

/** This process's open files inside `dir` (a partial upload write holds one). */
export const openFilesIn = (dir: string) =>
  fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false;
    }
  }).length;
