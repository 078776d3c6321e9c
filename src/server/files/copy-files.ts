import type { FileStorage } from './storage';

/**
 * Copies every complete file of one store into another, one file at a time as a stream, skipping
 * keys the target holds already: so it can be run again after an interruption (docs/decisions.md:
 * 352). Partial writes are left behind. Returns how many files were copied and skipped.
 */
export async function copyFiles(
  from: FileStorage,
  to: FileStorage,
  onCopied: (key: string) => void = () => undefined,
): Promise<{ copied: number; skipped: number }> {
  const present = new Set(await to.keys());
  let copied = 0;
  let skipped = 0;
  for (const entry of await from.inventory()) {
    if (entry.partial) continue;
    const source = present.has(entry.name) ? undefined : await from.open(entry.name);
    if (!source) {
      skipped += 1;
      continue;
    }
    await to.put(entry.name, source);
    copied += 1;
    onCopied(entry.name);
  }
  return { copied, skipped };
}
