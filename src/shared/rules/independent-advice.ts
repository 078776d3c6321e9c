/** Independent legal advice as the wizard states it (spec section 9). */

/** The independent legal advice fee text (spec section 9). */
export const INDEPENDENT_ADVICE_FEE = '£250 plus VAT';

/** Independent legal advice uses six documents (spec section 9). */
export const INDEPENDENT_ADVICE_DOCUMENTS = 6;
