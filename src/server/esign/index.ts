import type { Config } from '../config';
import type { Database } from '../db/connection';
import { builtinProvider } from './builtin';
import type { SigningProvider } from './provider';

/** The provider ESIGN_PROVIDER names (only 'builtin' so far: docs/decisions.md 283). */
export function signingProvider(db: Database, config: Config): SigningProvider {
  switch (config.esign.provider) {
    case 'builtin':
      return builtinProvider(db, config);
  }
}

export type { SigningProvider } from './provider';
