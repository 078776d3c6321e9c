/** A section that opens and closes (the firm's details): radix-ui stays behind ui/. */
export * as Collapsible from 'radix-ui/collapsible';
