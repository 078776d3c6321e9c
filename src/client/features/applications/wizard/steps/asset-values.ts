import type { components } from '../../../../../shared/api/schema';
import { assetTypes, codesOf, type AddressEntryType, type AssetType } from '../../../../../shared/journey/options';
import type { JourneyData } from '../../../../../shared/journey/steps';
import { ASSETS_MAX, FORM_E_MAX_FILES } from '../../../../../shared/rules/limits';

/**
 * The documents-and-assets step's form values: what the device keeps as the draft. Everything is
 * JSON: text while typing (so '12.' survives), yes/no as true/false/null (not answered yet), and
 * the Form E files as references (see DocumentRef).
 */

type AssetData = JourneyData['asset'];

/** Not answered yet is null. */
export type YesNo = boolean | null;

/**
 * A Form E file: the server's FileRecord id once uploaded, or the device's `upload-<uuid>` for a file
 * chosen but not uploaded yet (the outbox swaps it for the server id when it sends the step).
 */
export type DocumentRef = number | `upload-${string}`;

export interface AssetItemValues {
  /** The row's own key on this device (list keys, focus after removing); never sent. */
  id: string;
  type: AssetType | '';
  typeoOther: string;
  valueOfRealisable: string;
  clientsInterest: string;
}

export interface AssetStepValues {
  submittedFormE: YesNo;
  documents: DocumentRef[];
  additionalProperty: YesNo;
  addressType: AddressEntryType | '';
  address: string;
  house: string;
  street: string;
  city: string;
  postcode: string;
  estimatedValue: string;
  totalSum: string;
  clientInterest: string;
  includeOtherAssets: YesNo;
  assets: AssetItemValues[];
  additionalInformation: string;
  assetValue: string;
  routeToRepayment: string;
}

const assetTypeCodes: readonly AssetType[] = codesOf(assetTypes);

const textFields = [
  'address',
  'house',
  'street',
  'city',
  'postcode',
  'estimatedValue',
  'totalSum',
  'clientInterest',
  'additionalInformation',
  'assetValue',
  'routeToRepayment',
] as const;

/** The property fields: asked only when the client has an additional property. */
const propertyFields = [
  'addressType',
  'address',
  'house',
  'street',
  'city',
  'postcode',
  'estimatedValue',
  'totalSum',
  'clientInterest',
] as const;

let counter = 0;
function newRowId(): string {
  counter += 1;
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `asset-${counter}-${random}`;
}

export function emptyAsset(): AssetItemValues {
  return { id: newRowId(), type: '', typeoOther: '', valueOfRealisable: '', clientsInterest: '' };
}

export function emptyAssetValues(): AssetStepValues {
  return {
    submittedFormE: null,
    documents: [],
    additionalProperty: null,
    addressType: '',
    address: '',
    house: '',
    street: '',
    city: '',
    postcode: '',
    estimatedValue: '',
    totalSum: '',
    clientInterest: '',
    includeOtherAssets: null,
    assets: [],
    additionalInformation: '',
    assetValue: '',
    routeToRepayment: '',
  };
}

/* ── text ⇄ number ── */

function numberText(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return value;
  return '';
}

/**
 * An amount or a percentage as typed ('1,250.50', '£ 300', '12.') → a number; empty → absent. Text
 * that is no number is passed on as it is, so validateStep reports it instead of it vanishing.
 */
function parseAmount(text: string): number | undefined {
  const cleaned = text.replace(/[£,\s%]/g, '');
  if (cleaned === '') return undefined;
  const parsed = Number(cleaned);
  return Number.isFinite(parsed) ? parsed : (text as unknown as number);
}

/* ── journey ⇄ values ── */

function isDocumentRef(value: unknown): value is DocumentRef {
  return (
    (typeof value === 'number' && Number.isInteger(value) && value > 0) ||
    (typeof value === 'string' && /^upload-[\w-]+$/.test(value))
  );
}

function assetFromJourney(asset: components['schemas']['Asset']): AssetItemValues {
  return {
    id: newRowId(),
    type: asset.type ?? '',
    typeoOther: asset.typeoOther ?? '',
    valueOfRealisable: numberText(asset.valueOfRealisable),
    clientsInterest: numberText(asset.clientsInterest),
  };
}

export function assetValuesFromJourney(data: AssetData | undefined): AssetStepValues {
  const values = emptyAssetValues();
  if (!data) return values;
  return {
    ...values,
    submittedFormE: data.submittedFormE ?? null,
    documents: (data.documents ?? []).filter(isDocumentRef),
    additionalProperty: data.additionalProperty ?? null,
    addressType: data.addressType ?? '',
    address: data.address ?? '',
    house: data.house ?? '',
    street: data.street ?? '',
    city: data.city ?? '',
    postcode: data.postcode ?? '',
    estimatedValue: numberText(data.estimatedValue),
    totalSum: numberText(data.totalSum),
    clientInterest: numberText(data.clientInterest),
    includeOtherAssets: data.includeOtherAssets ?? null,
    assets: (data.assets ?? []).map(assetFromJourney),
    additionalInformation: data.additionalInformation ?? '',
    assetValue: numberText(data.assetValue),
    routeToRepayment: data.routeToRepayment ?? '',
  };
}

/** Sets `key` only when there is something to send: an empty answer is an absent one. */
function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | '' | null | undefined) {
  if (value === '' || value === null || value === undefined) return;
  target[key] = value as T[K];
}

/**
 * The journey data of the answers the user can see now: answers of a branch that is hidden (Form E
 * files after choosing No, the property after 'No additional property', the other address mode,
 * assets after 'No other assets', the other-type text of a listed type) stay in the draft, so
 * switching back restores them, but are not sent.
 */
export function assetValuesToJourney(values: AssetStepValues): AssetData {
  const data: AssetData = {};
  put(data, 'submittedFormE', values.submittedFormE);
  if (values.submittedFormE === true) {
    // Local `upload-…` references are resolved to server ids by the outbox when the step is sent.
    data.documents = values.documents.filter(isDocumentRef) as number[];
  }
  if (values.submittedFormE === false) {
    put(data, 'additionalProperty', values.additionalProperty);
    if (values.additionalProperty === true) {
      put(data, 'addressType', values.addressType);
      if (values.addressType === 'postcode') {
        put(data, 'postcode', values.postcode.trim());
        put(data, 'address', values.address.trim());
      } else if (values.addressType === 'manually') {
        put(data, 'house', values.house.trim());
        put(data, 'street', values.street.trim());
        put(data, 'city', values.city.trim());
        put(data, 'postcode', values.postcode.trim());
      }
      put(data, 'estimatedValue', parseAmount(values.estimatedValue));
      put(data, 'totalSum', parseAmount(values.totalSum));
      put(data, 'clientInterest', parseAmount(values.clientInterest));
    }
    put(data, 'includeOtherAssets', values.includeOtherAssets);
    if (values.includeOtherAssets === true) {
      data.assets = values.assets.map((item) => {
        const asset: components['schemas']['Asset'] = {};
        put(asset, 'type', item.type);
        if (item.type === 'other') put(asset, 'typeoOther', item.typeoOther.trim());
        put(asset, 'valueOfRealisable', parseAmount(item.valueOfRealisable));
        put(asset, 'clientsInterest', parseAmount(item.clientsInterest));
        return asset;
      });
    }
    put(data, 'additionalInformation', values.additionalInformation.trim());
  }
  put(data, 'assetValue', parseAmount(values.assetValue));
  put(data, 'routeToRepayment', values.routeToRepayment.trim());
  return data;
}

/* ── stored drafts ── */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Yes/no as any earlier version may have stored it: true/false, 'yes'/'no', 'true'/'false'. */
function repairYesNo(value: unknown): YesNo {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (lower === 'yes' || lower === 'true') return true;
    if (lower === 'no' || lower === 'false') return false;
  }
  return null;
}

function repairText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function repairDocuments(value: unknown): DocumentRef[] {
  if (!Array.isArray(value)) return [];
  const refs: DocumentRef[] = [];
  for (const item of value) {
    // Earlier shapes: a numeric string, or a file record ({id}) instead of its id.
    const candidate = isRecord(item) ? item.id : typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item;
    if (isDocumentRef(candidate) && !refs.includes(candidate)) refs.push(candidate);
  }
  return refs.slice(0, FORM_E_MAX_FILES);
}

function repairAsset(value: unknown): AssetItemValues | null {
  if (!isRecord(value)) return null;
  const type = (assetTypeCodes as readonly unknown[]).includes(value.type) ? (value.type as AssetType) : '';
  return {
    id: typeof value.id === 'string' && value.id !== '' ? value.id : newRowId(),
    type,
    typeoOther: repairText(value.typeoOther),
    valueOfRealisable: repairText(value.valueOfRealisable),
    clientsInterest: repairText(value.clientsInterest),
  };
}

/**
 * A stored draft, written by this or any earlier version, as values: every field is checked and
 * repaired on its own (a wrong or missing field becomes empty), so one bad field never costs the
 * user the rest. Only something that is no draft at all (not an object) gives null.
 */
export function parseAssetDraft(stored: unknown): AssetStepValues | null {
  if (!isRecord(stored)) return null;
  const values = emptyAssetValues();
  for (const field of textFields) values[field] = repairText(stored[field]);
  values.submittedFormE = repairYesNo(stored.submittedFormE);
  values.additionalProperty = repairYesNo(stored.additionalProperty);
  values.includeOtherAssets = repairYesNo(stored.includeOtherAssets);
  values.addressType = stored.addressType === 'postcode' || stored.addressType === 'manually' ? stored.addressType : '';
  values.documents = repairDocuments(stored.documents);
  const seen = new Set<string>();
  values.assets = (Array.isArray(stored.assets) ? stored.assets : [])
    .map(repairAsset)
    .filter((item): item is AssetItemValues => item !== null)
    .map((item) => {
      // Two rows with one key would confuse the list: the later one gets a new key.
      const unique = seen.has(item.id) ? { ...item, id: newRowId() } : item;
      seen.add(unique.id);
      return unique;
    })
    .slice(0, ASSETS_MAX);
  return values;
}

/* ── leaving the step ── */

function sameRefs(a: readonly DocumentRef[], b: readonly DocumentRef[]): boolean {
  return a.length === b.length && a.every((ref) => b.includes(ref));
}

/**
 * Spec: "Leaving the documents step first stores the list of uploaded files." The journey data to
 * save when the user leaves the step another way than Save & Continue: the step as last saved on
 * the server, with the Form E answer and the current list of files. Null when there is nothing to
 * store (Form E not declared, or the saved list is already this one). The wizard checks it with
 * validateStep before sending it (a step still missing required answers is only kept as a draft).
 */
export function documentsForLeave(values: AssetStepValues, saved: AssetData | undefined): AssetData | null {
  if (values.submittedFormE !== true) return null;
  const documents = values.documents.filter(isDocumentRef);
  if (saved?.submittedFormE === true && sameRefs(documents, (saved.documents ?? []) as DocumentRef[])) return null;
  const base: AssetData = { ...(saved ?? {}) };
  // The saved "No" branch does not belong with Form E (toJourney would not send it either).
  for (const field of [
    ...propertyFields,
    'additionalProperty',
    'includeOtherAssets',
    'assets',
    'additionalInformation',
  ] as const) {
    delete base[field];
  }
  return { ...base, submittedFormE: true, documents: documents as number[] };
}
