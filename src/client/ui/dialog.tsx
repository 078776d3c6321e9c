/**
 * The dialog parts (modal, mobile menu, conflict chooser): features and the app take them from here,
 * so radix-ui stays behind ui/ and can be replaced in one place.
 */
// The primitive's own module, not the barrel (decision 366).
export * as Dialog from 'radix-ui/dialog';
