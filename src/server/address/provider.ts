import { AppError } from '../errors/app-error';

/** Where addresses at a postcode come from. The postcode given is already normalized (SW1A1AA). */
export interface AddressProvider {
  /** One string per address, empty parts removed; [] when the postcode is unknown. */
  lookup(postcode: string): Promise<string[]>;
}

/** The lookup service failed or did not answer in time: 503, never a 500 (the form offers manual entry). */
export class PostcodeUnavailable extends AppError {
  constructor(readonly reason: string) {
    super(503, 'postcodeUnavailable');
  }
}

/** Joins address parts with ', ', leaving out empty ones. */
export function joinAddressParts(parts: readonly unknown[]): string {
  return parts
    .filter((p): p is string | number => typeof p === 'string' || typeof p === 'number')
    .map((p) => String(p).trim())
    .filter((p) => p !== '')
    .join(', ');
}
