/** A section that opens and closes (the firm's details): radix-ui stays behind ui/. */
export { Collapsible } from 'radix-ui';
