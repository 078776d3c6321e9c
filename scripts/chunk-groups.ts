// How the client's JavaScript is cut into chunks beyond Rolldown's automatic splitting (decision 366).
// Left to itself, Rolldown makes one chunk per set of routes sharing a module: a signed-in screen
// then waited for about 40 files, each a request of its own at 150 ms latency on a slow phone. The
// modules every signed-in screen needs before it can draw (the layout and the first screens' own
// static imports) always load together, so they go into one chunk, `signed-in`; what a public page
// (sign-in, reset, sign-up) also needs stays out of it, so those pages never download it.
import path from 'node:path';

/** Root-relative modules whose static imports every signed-in first screen needs. */
export const SIGNED_IN_CORE_ROOTS: readonly string[] = [
  'src/client/app/layout.tsx',
  'src/client/features/applications/list/home-page.tsx',
  'src/client/features/applications/list/applications-page.tsx',
];

/**
 * What a signed-in screen loads on demand once it has mounted (decision 630): the sync engine, every
 * feature's writes, the header's status, the list's device reads. They load together, so they go
 * into one chunk, `offline`, instead of some twenty small ones.
 */
export const OFFLINE_ROOTS: readonly string[] = [
  'src/client/offline/sync-engine.ts',
  'src/client/app/offline-mutations.ts',
  'src/client/offline/sync-status.tsx',
  'src/client/offline/waiting-for-page.tsx',
  'src/client/features/applications/offline/pending-creates.ts',
];

/**
 * The device's store (Dexie and the tables), loaded a task before the rest (offline/load-store.ts,
 * decision 740): a chunk of its own, `offline-store`, so each runs as a task of its own.
 */
export const OFFLINE_STORE_ROOTS: readonly string[] = ['src/client/offline/db.ts'];

/** The entry: what it loads lazily outside the route table (toasts, modals, the worker's window) is public too. */
export const ENTRY = 'src/client/main.tsx';
/** The route table: of its lazy modules only the public pages below are public. */
export const ROUTE_TABLE = 'src/client/app/router.tsx';

/**
 * Modules a signed-out visitor may load (the entry, each public page, and what the entry loads
 * lazily itself): what they import statically stays out of `signed-in`, so no public page ever
 * waits for it.
 */
export const PUBLIC_ROOTS: readonly string[] = [
  ENTRY,
  'src/client/features/auth/sign-in-page.tsx',
  'src/client/features/auth/sign-up-page.tsx',
  'src/client/features/auth/reset-page.tsx',
  'src/client/features/auth/reset-validate-page.tsx',
  'src/client/features/auth/reset-succeeded-page.tsx',
  'src/client/features/auth/landing-pages.tsx',
];

/** What codeSplitting needs of a module (Rolldown's ModuleInfo). */
interface ModuleLinks {
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
}

type GetModuleInfo = (id: string) => ModuleLinks | null;

/** The modules `roots` import statically, transitively, themselves included. */
export function staticImports(roots: Iterable<string>, info: GetModuleInfo): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    const module = info(id);
    if (!module) continue;
    seen.add(id);
    stack.push(...module.importedIds);
  }
  return seen;
}

/**
 * The signed-in core: the core roots' static imports, less every public root's. Of those left out,
 * what only the entry's own lazy parts share with the core (the dialog and toast primitives the
 * header's menu uses too) forms a second group, `overlays`, loaded by both.
 */
export function chunkGroups(
  info: GetModuleInfo,
  root: string,
): { core: Set<string>; overlays: Set<string>; offline: Set<string>; offlineStore: Set<string> } {
  const resolve = (file: string) => path.resolve(root, file);
  const core = staticImports(SIGNED_IN_CORE_ROOTS.map(resolve), info);
  const routeTable = resolve(ROUTE_TABLE);
  const lazyOfEntry = [...staticImports([resolve(ENTRY)], info)]
    .filter((id) => id !== routeTable)
    .flatMap((id) => info(id)?.dynamicallyImportedIds ?? []);
  const publicPages = staticImports(PUBLIC_ROOTS.map(resolve), info);
  const overlays = new Set<string>();
  for (const id of staticImports(lazyOfEntry, info)) {
    if (core.delete(id) && !publicPages.has(id)) overlays.add(id);
  }
  for (const id of publicPages) core.delete(id);
  // What the core or a public page imports statically stays with them: the offline group is only
  // ever imported by chunks that load it on demand.
  const loadedBefore = (id: string) => core.has(id) || overlays.has(id) || publicPages.has(id);
  const offlineStore = staticImports(OFFLINE_STORE_ROOTS.map(resolve), info);
  for (const id of offlineStore) if (loadedBefore(id)) offlineStore.delete(id);
  const offline = staticImports(OFFLINE_ROOTS.map(resolve), info);
  for (const id of offline) if (loadedBefore(id) || offlineStore.has(id)) offline.delete(id);
  return { core, overlays, offline, offlineStore };
}

/**
 * `build.rolldownOptions.output.codeSplitting` for the client build. The group does not pull in its
 * modules' other dependencies (they are the public pages' and the entry's, already in chunks that
 * never import `signed-in`), so no public page's chunk ever imports it.
 */
export function codeSplitting(root: string) {
  let groups: ReturnType<typeof chunkGroups> | undefined;
  const groupOf = (id: string, ctx: { getModuleInfo: GetModuleInfo }) => {
    groups ??= chunkGroups((moduleId) => ctx.getModuleInfo(moduleId), root);
    if (groups.core.has(id)) return 'signed-in';
    if (groups.overlays.has(id)) return 'overlays';
    if (groups.offlineStore.has(id)) return 'offline-store';
    return groups.offline.has(id) ? 'offline' : null;
  };
  return {
    groups: [
      { debugName: 'signed-in, overlays, offline and offline-store', name: groupOf, includeDependenciesRecursively: false },
    ],
  };
}
