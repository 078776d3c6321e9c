import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { postcodeAddresses } from '../db/schema';
import { joinAddressParts, type AddressProvider } from './provider';

/** Addresses from the postcode_addresses table (the demo data, or a deployment's own list). */
export function builtinAddressProvider(db: Database): AddressProvider {
  return {
    async lookup(postcode) {
      const rows = await db
        .select({ lines: postcodeAddresses.lines })
        .from(postcodeAddresses)
        .where(eq(postcodeAddresses.postcode, postcode))
        .orderBy(asc(postcodeAddresses.id));
      return rows.map((r) => joinAddressParts(Array.isArray(r.lines) ? r.lines : [])).filter((a) => a !== '');
    },
  };
}
