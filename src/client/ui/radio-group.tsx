/**
 * A radio group whose options carry their own markup (the solicitor choice); plain option lists use
 * RadioField (choice-fields.tsx). radix-ui stays behind ui/.
 */
export * as RadioGroup from 'radix-ui/radio-group';
