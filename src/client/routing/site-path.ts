/**
 * Whether a value is a path of this site ('/loans/3?tab=1'), never another origin written so that
 * it looks like one ('//host', '/\host', 'https://host'). Used where a path comes from outside the
 * page: the sign-in page's `next`, a push notification's link.
 */
export function isSitePath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}
