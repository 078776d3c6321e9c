import type { Config } from '../config';
import type { Database } from '../db/connection';
import { builtinAddressProvider } from './builtin';
import { idealPostcodesProvider } from './ideal-postcodes';
import type { AddressProvider } from './provider';

export type { AddressProvider } from './provider';
export { PostcodeUnavailable } from './provider';

/** The provider the configuration chooses (POSTCODE_PROVIDER). */
export function addressProvider(config: Config, db: Database): AddressProvider {
  if (config.postcode.provider === 'idealPostcodes') {
    return idealPostcodesProvider({
      apiKey: config.postcode.idealPostcodesApiKey ?? '',
      baseUrl: config.postcode.idealPostcodesUrl,
      timeoutMs: config.postcode.timeoutMs,
    });
  }
  return builtinAddressProvider(db);
}
