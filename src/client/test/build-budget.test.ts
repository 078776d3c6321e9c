// The budget plugin lives in scripts/ (run by vite.config.ts); its test sits here because the unit
// project collects tests under src/ only.
import { describe, expect, it, vi } from 'vitest';
import type { ResolvedConfig, Rolldown } from 'vite';
import { buildBudget, SIGN_IN_MODULE } from '../../../scripts/build-budget';

const ROOT = '/project';

function chunk(fileName: string, code: string, options: { entry?: boolean; modules?: string[]; imports?: string[] }) {
  return {
    type: 'chunk',
    fileName,
    code,
    isEntry: options.entry ?? false,
    isDynamicEntry: !options.entry,
    moduleIds: (options.modules ?? []).map((module) => `${ROOT}/${module}`),
    imports: options.imports ?? [],
    dynamicImports: [],
    viteMetadata: { importedCss: new Set<string>() },
  };
}

/** Runs the plugin's writeBundle on a fake bundle, as `vite build` would; returns what it logged. */
function runBudget(bundle: Record<string, unknown>, options: Parameters<typeof buildBudget>[0] = {}) {
  const plugin = buildBudget(options);
  const logger = { info: vi.fn(), warn: vi.fn() };
  const config = { root: ROOT, build: { ssr: false }, logger } as unknown as ResolvedConfig;
  (plugin.configResolved as (config: ResolvedConfig) => void)(config);
  const context = {
    error: (message: string) => {
      throw new Error(message);
    },
  };
  (plugin.writeBundle as (this: unknown, options: unknown, bundle: Rolldown.OutputBundle) => void).call(
    context,
    {},
    bundle as unknown as Rolldown.OutputBundle,
  );
  return logger;
}

const entry = chunk('assets/index.js', 'console.log("entry");', { entry: true, modules: ['src/client/main.tsx'] });

describe('the sign-in budget of vite build', () => {
  it('prints the figure when the sign-in page is in the bundle and within the budget', () => {
    const signIn = chunk('assets/sign-in.js', 'console.log("sign in");', { modules: [SIGN_IN_MODULE] });
    const logger = runBudget({ [entry.fileName]: entry, [signIn.fileName]: signIn });
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('[budget] /sign-in JavaScript:'));
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('in 2 chunks'));
  });

  it('fails the build when the sign-in page is not in the bundle (renamed or moved)', () => {
    const other = chunk('assets/other.js', 'console.log("other");', { modules: ['src/client/features/auth/log-in.tsx'] });
    expect(() => runBudget({ [entry.fileName]: entry, [other.fileName]: other })).toThrow(
      `${SIGN_IN_MODULE} is not in the bundle`,
    );
  });

  it('fails the build above the budget', () => {
    const signIn = chunk('assets/sign-in.js', 'console.log("sign in");', { modules: [SIGN_IN_MODULE] });
    // Two gzipped chunks are always more than 20 bytes.
    expect(() => runBudget({ [entry.fileName]: entry, [signIn.fileName]: signIn }, { limitBytes: 20 })).toThrow(
      'Page-weight budget exceeded',
    );
  });
});
