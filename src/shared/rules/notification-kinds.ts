import type { Role } from './permissions';

/**
 * The kinds of push notification: one per event that leaves something waiting on a person, each
 * received by one audience. A person turns kinds on and off for themself (all of their role's
 * kinds are on until they choose); a reminder uses the kind of what it reminds of.
 */
export const notificationKinds = [
  'documents-ready',
  'drawdown-awaits-client',
  'application-submitted',
  'drawdown-requested',
  'drawdown-client-approved',
  'application-accepted',
  'application-rejected',
  'loan-created',
  'drawdown-approved',
  'drawdown-rejected',
  'drawdown-paid',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Who receives a kind: the client of the record, every staff user, or the record's lawyer. */
export type NotificationAudience = 'client' | 'staff' | 'lawyer';

export const notificationAudience: Readonly<Record<NotificationKind, NotificationAudience>> = {
  'documents-ready': 'client',
  'drawdown-awaits-client': 'client',
  'application-submitted': 'staff',
  'drawdown-requested': 'staff',
  'drawdown-client-approved': 'staff',
  'application-accepted': 'lawyer',
  'application-rejected': 'lawyer',
  'loan-created': 'lawyer',
  'drawdown-approved': 'lawyer',
  'drawdown-rejected': 'lawyer',
  'drawdown-paid': 'lawyer',
};

/** What the notification settings call each kind (a person chooses which they receive). */
export const notificationKindLabels: Readonly<Record<NotificationKind, string>> = {
  'documents-ready': 'Documents ready to sign',
  'drawdown-awaits-client': 'A drawdown awaits your approval',
  'application-submitted': 'An application is submitted',
  'drawdown-requested': 'A drawdown is requested',
  'drawdown-client-approved': 'A client approved a drawdown',
  'application-accepted': 'An application is accepted',
  'application-rejected': 'An application is rejected',
  'loan-created': 'A loan is created',
  'drawdown-approved': 'A drawdown is approved',
  'drawdown-rejected': 'A drawdown is rejected',
  'drawdown-paid': 'A drawdown is paid',
};

/** The audience a role belongs to; a firm's admin receives no push notifications. */
export function audienceOfRole(role: Role): NotificationAudience | null {
  switch (role) {
    case 'customer':
      return 'client';
    case 'root':
    case 'admin':
      return 'staff';
    case 'lawyer':
      return 'lawyer';
    case 'firm':
      return null;
  }
}

/** The kinds a person of this role may receive (and so may turn on), in the list's order. */
export function notificationKindsOfRole(role: Role): NotificationKind[] {
  const audience = audienceOfRole(role);
  return notificationKinds.filter((kind) => notificationAudience[kind] === audience);
}

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === 'string' && (notificationKinds as readonly string[]).includes(value);
}
