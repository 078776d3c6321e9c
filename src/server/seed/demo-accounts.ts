/** The demo accounts the README lists, one per role; the seed creates them, the tests sign in as them. */
export const DEMO_PASSWORD = 'Demo-pass-1';

export const demoAccounts = {
  root: 'root@demo.test',
  admin: 'admin@demo.test',
  firm: 'firm@demo.test',
  lawyer: 'lawyer@demo.test',
  customer: 'client@demo.test',
} as const;
