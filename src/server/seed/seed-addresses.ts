import type { Database } from '../db/connection';
import { postcodeAddresses } from '../db/schema';
import { normalizePostcode } from '../../shared/journey/address';

/**
 * Demo addresses for the built-in postcode provider: a few real postcodes with made-up premises.
 * Parts are building, street, locality, town; empty parts are kept here and left out on lookup.
 */
const demoPostcodeAddresses: Record<string, readonly (readonly string[])[]> = {
  'SW1A 1AA': [
    ['Flat 1', '12 Buckingham Gate', '', 'London'],
    ['Flat 2', '12 Buckingham Gate', '', 'London'],
    ['', '14 Buckingham Gate', '', 'London'],
    ['The Mews Office', '16 Buckingham Gate', '', 'London'],
  ],
  'SW1A 2AA': [
    ['', '10 Downing Street', '', 'London'],
    ['', '11 Downing Street', '', 'London'],
  ],
  'EC1A 1BB': [
    ['Unit 3', '41 Aldersgate Street', '', 'London'],
    ['', '43 Aldersgate Street', '', 'London'],
    ['Second Floor', '45 Aldersgate Street', '', 'London'],
  ],
  'M1 1AE': [
    ['Apartment 7', '3 Piccadilly Plaza', '', 'Manchester'],
    ['Apartment 8', '3 Piccadilly Plaza', '', 'Manchester'],
    ['', '5 Portland Street', '', 'Manchester'],
  ],
  'B33 8TH': [
    ['', '18 Stechford Lane', 'Kitts Green', 'Birmingham'],
    ['', '20 Stechford Lane', 'Kitts Green', 'Birmingham'],
    ['Rose Cottage', '22 Stechford Lane', 'Kitts Green', 'Birmingham'],
  ],
  'CR2 6XH': [
    ['', '7 Selsdon Park Road', 'Sanderstead', 'South Croydon'],
    ['', '9 Selsdon Park Road', 'Sanderstead', 'South Croydon'],
    ['The Old Rectory', '', 'Sanderstead', 'South Croydon'],
  ],
  'DN55 1PT': [
    ['Flat A', '2 Thorne Road', 'Wheatley', 'Doncaster'],
    ['Flat B', '2 Thorne Road', 'Wheatley', 'Doncaster'],
  ],
};

/** Adds the demo addresses (called once from the demo seed, inside its transaction). */
export async function seedPostcodeAddresses(db: Database): Promise<void> {
  const rows = Object.entries(demoPostcodeAddresses).flatMap(([postcode, addresses]) =>
    addresses.map((lines) => ({ postcode: normalizePostcode(postcode), lines: [...lines] })),
  );
  await db.insert(postcodeAddresses).values(rows);
}
