/** The demo accounts the README lists, one per role; the seed creates them, the tests sign in as them. */
export const DEMO_PASSWORD = 'Demo-pass-1';

export const demoAccounts = {
  root: 'root@demo.test',
  admin: 'admin@demo.test',
  firm: 'firm@demo.test',
  lawyer: 'lawyer@demo.test',
  customer: 'client@demo.test',
} as const;

/** Clients who were invited and have not joined: their invitations wait in the mailbox. */
export const invitedDemoClients = [
  'priya.shah@demo.test',
  'daniel.okafor@demo.test',
  'emma.clarke@demo.test',
  'tom.hughes@demo.test',
  'sarah.mitchell@demo.test',
  'olivia.grant@demo.test',
  'james.patel@demo.test',
] as const;
