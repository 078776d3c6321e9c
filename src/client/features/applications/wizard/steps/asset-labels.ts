import type { Audience } from './step-definition';
import { fieldLabel } from '../../../../../shared/journey/labels';
import { CASH_LABEL_THRESHOLD_POUNDS, FORM_E_MAX_FILES, UPLOAD_MAX_MB } from '../../../../../shared/rules/limits';

/**
 * The documents step's questions: the shared wording (shared/journey/labels.ts, also printed in the
 * PDF), plus what only the screen says: the upload hint and the cash holdings label.
 */
export function assetLabels(audience: Audience) {
  const label = (field: string) => fieldLabel('asset', field, audience);
  return {
    submittedFormE: label('submittedFormE'),
    documents: label('documents'),
    documentsHint: `PDF files of at most ${UPLOAD_MAX_MB} MB each, up to ${FORM_E_MAX_FILES} files.`,
    additionalProperty: label('additionalProperty'),
    addressType: label('addressType'),
    postcode: label('postcode'),
    address: label('address'),
    house: label('house'),
    street: label('street'),
    city: label('city'),
    estimatedValue: label('estimatedValue'),
    totalSum: label('totalSum'),
    clientInterest: label('clientInterest'),
    includeOtherAssets: label('includeOtherAssets'),
    assetType: label('assets.type'),
    typeoOther: label('assets.typeoOther'),
    valueOfRealisable: label('assets.valueOfRealisable'),
    /** Spec: "Cash holdings have a label threshold of £5,000" (our wording, docs/decisions.md). */
    cashValueOfRealisable: `${label('assets.valueOfRealisable')} of cash sums over £${CASH_LABEL_THRESHOLD_POUNDS.toLocaleString('en-GB')}`,
    clientsInterest: label('assets.clientsInterest'),
    additionalInformation: label('additionalInformation'),
    assetValue: label('assetValue'),
    routeToRepayment: label('routeToRepayment'),
  };
}

export type AssetLabels = ReturnType<typeof assetLabels>;
