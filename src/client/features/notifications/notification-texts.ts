import type { PushBlock } from '../../pwa/push-browser';

/** The Notifications page's words: the spec has none for it (docs/decisions.md (687)). */
export const notificationTexts = {
  title: 'Notifications',
  intro:
    'Turn notifications on to be told on this device when something waits for you, with a link to the page where you act. Emails are sent as before.',
  deviceHeading: 'This device',
  on: 'Notifications are on for this device.',
  off: 'Notifications are off for this device.',
  turnOn: 'Turn on notifications',
  turnOff: 'Turn off notifications',
  turnedOn: 'Notifications are on for this device.',
  turnedOff: 'Notifications are off for this device.',
  kindsHeading: 'What you receive',
  kindsHint: 'Your choice counts on every device you turned notifications on.',
  save: 'Save choices',
  saved: 'Your choices are saved.',
  devicesHeading: 'Your devices',
  noDevices: 'No device receives notifications yet.',
  thisDevice: 'This device',
  remove: 'Remove',
  removed: 'The device no longer receives notifications.',
  offline: 'You are offline. These settings need a connection.',
  notSentOffline:
    'Not saved: these settings need a connection. What you chose stays on this page: save it once you are back online.',
  pushServiceFailed:
    'This browser could not reach its notification service, so notifications are still off. Try again later, or use another browser.',
  pushServiceRefused:
    'The portal does not send notifications through this browser’s push service, so notifications are still off. Use a recent Chrome, Edge, Firefox or Safari.',
  notForRole: 'A firm’s admin receives no notifications.',
} as const;

/** Why notifications cannot be turned on here, and what to do about it. */
export const blockTexts: Readonly<Record<PushBlock, { title: string; text: string }>> = {
  unsupported: {
    title: 'This browser cannot show notifications',
    text: 'Open the portal in a recent Chrome, Edge, Firefox or Safari to turn them on. Emails are sent as before.',
  },
  'ios-not-installed': {
    title: 'Add to Home Screen first',
    text: 'On iPhone and iPad, notifications come only to the portal added to the home screen. In Safari, tap Share, then Add to Home Screen, open the portal from its icon and turn notifications on there.',
  },
  denied: {
    title: 'Notifications are blocked in this browser',
    text: 'To allow them, open this site’s settings (the icon beside the address, or your phone’s Settings, then Notifications), allow notifications for the portal, then come back to this page.',
  },
};

/** When the device was added to the person's list, in their words. */
export function turnedOnText(date: string): string {
  return `Turned on ${date}`;
}
