export const WAITING_TITLE = 'Waiting on this device to be sent:';
