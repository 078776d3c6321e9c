import { describe, expect, it } from 'vitest';
import { validateStep } from '../../../../../shared/journey/validate';
import {
  assetValuesFromJourney,
  assetValuesToJourney,
  documentsForLeave,
  emptyAsset,
  emptyAssetValues,
  parseAssetDraft,
  type AssetStepValues,
} from './asset-values';

function filled(): AssetStepValues {
  return {
    ...emptyAssetValues(),
    submittedFormE: false,
    documents: [12, 'upload-abc'],
    additionalProperty: true,
    addressType: 'manually',
    address: '1 Picked Road, London',
    house: '4',
    street: 'High Street',
    city: 'Leeds',
    postcode: 'LS1 4AB',
    estimatedValue: '250000',
    totalSum: '100000.50',
    clientInterest: '50',
    includeOtherAssets: true,
    assets: [
      { id: 'a', type: 'other', typeoOther: 'Wine cellar', valueOfRealisable: '8000', clientsInterest: '100' },
      { id: 'b', type: 'cashSums', typeoOther: 'left over', valueOfRealisable: '6000', clientsInterest: '50' },
    ],
    additionalInformation: ' Nothing else ',
    assetValue: '264000',
    routeToRepayment: 'Sale of the property',
  };
}

describe('assetValuesToJourney', () => {
  it('sends the No branch with numbers and drops the Form E files, the other address mode and typeoOther of listed types', () => {
    expect(assetValuesToJourney(filled())).toEqual({
      submittedFormE: false,
      additionalProperty: true,
      addressType: 'manually',
      house: '4',
      street: 'High Street',
      city: 'Leeds',
      postcode: 'LS1 4AB',
      estimatedValue: 250000,
      totalSum: 100000.5,
      clientInterest: 50,
      includeOtherAssets: true,
      assets: [
        { type: 'other', typeoOther: 'Wine cellar', valueOfRealisable: 8000, clientsInterest: 100 },
        { type: 'cashSums', valueOfRealisable: 6000, clientsInterest: 50 },
      ],
      additionalInformation: 'Nothing else',
      assetValue: 264000,
      routeToRepayment: 'Sale of the property',
    });
  });

  it('with Form E sends only the files and the questions always asked', () => {
    expect(assetValuesToJourney({ ...filled(), submittedFormE: true })).toEqual({
      submittedFormE: true,
      documents: [12, 'upload-abc'],
      assetValue: 264000,
      routeToRepayment: 'Sale of the property',
    });
  });

  it('drops the property after No, the assets after No, and the manual parts of a postcode address', () => {
    const noProperty = assetValuesToJourney({ ...filled(), additionalProperty: false, includeOtherAssets: false });
    expect(noProperty).not.toHaveProperty('house');
    expect(noProperty).not.toHaveProperty('estimatedValue');
    expect(noProperty).not.toHaveProperty('assets');
    expect(noProperty).toMatchObject({ additionalProperty: false, includeOtherAssets: false });
    const byPostcode = assetValuesToJourney({ ...filled(), addressType: 'postcode' });
    expect(byPostcode).toMatchObject({ addressType: 'postcode', address: '1 Picked Road, London', postcode: 'LS1 4AB' });
    expect(byPostcode).not.toHaveProperty('house');
    expect(byPostcode).not.toHaveProperty('street');
  });

  it('leaves out what is not answered, and both branches before the Form E question is', () => {
    expect(assetValuesToJourney(emptyAssetValues())).toEqual({});
    expect(assetValuesToJourney({ ...filled(), submittedFormE: null })).toEqual({
      assetValue: 264000,
      routeToRepayment: 'Sale of the property',
    });
  });

  it('gives data the shared rules accept for a complete No branch', () => {
    const result = validateStep('asset', assetValuesToJourney(filled()), { audience: 'lawyer', today: new Date('2025-01-01') });
    expect(result.success).toBe(true);
  });
});

describe('assetValuesFromJourney', () => {
  it('turns journey data into text values and back', () => {
    const data = assetValuesToJourney(filled());
    const values = assetValuesFromJourney(data);
    expect(values.estimatedValue).toBe('250000');
    expect(values.totalSum).toBe('100000.5');
    expect(values.assets.map((a) => a.type)).toEqual(['other', 'cashSums']);
    expect(new Set(values.assets.map((a) => a.id)).size).toBe(2);
    expect(assetValuesToJourney(values)).toEqual(data);
  });

  it('gives empty values for no data', () => {
    expect(assetValuesFromJourney(undefined)).toEqual(emptyAssetValues());
  });
});

describe('parseAssetDraft', () => {
  it('keeps a current draft as it is', () => {
    const values = filled();
    expect(parseAssetDraft(JSON.parse(JSON.stringify(values)))).toEqual(values);
  });

  it('repairs old and broken drafts field by field', () => {
    const repaired = parseAssetDraft({
      submittedFormE: 'no',
      additionalProperty: 'Yes',
      includeOtherAssets: 42,
      addressType: 'by-hand',
      estimatedValue: 125000,
      postcode: null,
      documents: ['7', 7, { id: 9 }, 'upload-x1', 'nonsense', -3, 1.5],
      assets: [{ type: 'boat', valueOfRealisable: 10 }, 'junk', { id: 'dup', type: 'savings' }, { id: 'dup', type: 'pensions' }],
    });
    expect(repaired).not.toBeNull();
    expect(repaired).toMatchObject({
      submittedFormE: false,
      additionalProperty: true,
      includeOtherAssets: null,
      addressType: '',
      estimatedValue: '125000',
      postcode: '',
      routeToRepayment: '',
      documents: [7, 9, 'upload-x1'],
    });
    expect(repaired!.assets).toHaveLength(3);
    expect(repaired!.assets[0]).toMatchObject({ type: '', valueOfRealisable: '10', typeoOther: '' });
    expect(repaired!.assets[0]!.id).not.toBe('');
    expect(new Set(repaired!.assets.map((a) => a.id)).size).toBe(3);
  });

  it('gives null for something that is no draft', () => {
    expect(parseAssetDraft(null)).toBeNull();
    expect(parseAssetDraft('text')).toBeNull();
    expect(parseAssetDraft([1, 2])).toBeNull();
  });
});

describe('documentsForLeave', () => {
  it('stores the current files with the saved answers when the list changed', () => {
    const values = { ...emptyAssetValues(), submittedFormE: true, documents: [3, 'upload-q'] as AssetStepValues['documents'] };
    expect(documentsForLeave(values, { submittedFormE: true, documents: [3], assetValue: 10, routeToRepayment: 'Sale' })).toEqual(
      {
        submittedFormE: true,
        documents: [3, 'upload-q'],
        assetValue: 10,
        routeToRepayment: 'Sale',
      },
    );
  });

  it('drops a saved No branch, and stores nothing when unchanged or without Form E', () => {
    const values = { ...emptyAssetValues(), submittedFormE: true, documents: [3] as AssetStepValues['documents'] };
    expect(documentsForLeave(values, { submittedFormE: false, additionalProperty: false, assets: [], assetValue: 5 })).toEqual({
      submittedFormE: true,
      documents: [3],
      assetValue: 5,
    });
    expect(documentsForLeave(values, { submittedFormE: true, documents: [3] })).toBeNull();
    expect(documentsForLeave({ ...values, submittedFormE: false }, undefined)).toBeNull();
  });

  it('stores an emptied list too', () => {
    const values = { ...emptyAssetValues(), submittedFormE: true };
    expect(documentsForLeave(values, { submittedFormE: true, documents: [3] })).toEqual({ submittedFormE: true, documents: [] });
  });
});

it('emptyAsset rows have their own keys', () => {
  expect(emptyAsset().id).not.toBe(emptyAsset().id);
});
