import type { components } from '../api/schema';
import { monthNames } from '../rules/months';
import { BIRTH_YEARS, BIRTH_YEARS_END_OFFSET, CASH_LABEL_THRESHOLD_POUNDS, DEPENDANTS_MAX } from '../rules/limits';

/** The option lists of the journey (spec section 3 "Option lists"), shared by the forms, the server and the PDF. */

type Schemas = components['schemas'];
export interface Option<V extends string | number> {
  value: V;
  label: string;
  /** Offered but not choosable (a day the chosen month does not have). */
  disabled?: boolean;
}

/** The codes of a list, in its order: the valibot picklists and the code unions come from the lists themselves. */
export function codesOf<V extends string>(list: readonly Option<V>[]): V[] {
  return list.map((option) => option.value);
}
/** The union of a list's codes. Each list satisfies the contract's enum; options.test.ts checks none is missing. */
export type CodeOf<L extends readonly Option<string>[]> = L[number]['value'];

export const titles = (['Mr', 'Mrs', 'Miss', 'Ms'] as const).map((t) => ({ value: t, label: t })) satisfies readonly Option<
  Schemas['Title']
>[];
export type Title = CodeOf<typeof titles>;

/** Days 1 to 31; whether the day exists in the chosen month is checked by validateStep. */
export const days: readonly Option<number>[] = Array.from({ length: 31 }, (_, i) => ({ value: i + 1, label: String(i + 1) }));

/** Months 01 to 12 with names: the label shows both ('01 - January'). */
export const months: readonly Option<number>[] = monthNames.map((name, i) => ({
  value: i + 1,
  label: `${String(i + 1).padStart(2, '0')} - ${name}`,
}));

function daysIn(year: number | null, month: number): number {
  // No year yet: February may still have its 29th.
  return new Date(Date.UTC(year ?? 2000, month, 0)).getUTCDate();
}

/**
 * The day, month and year lists of a split date with what is already chosen taken into account:
 * a part that would make a date that does not exist (31 February, 29 February 2027) is offered
 * disabled, so the form never offers a date the rule refuses (docs/decisions.md 437).
 */
export function splitDateOptions(
  chosen: { day: string; month: string; year: string },
  lists: { days: readonly Option<number>[]; months: readonly Option<number>[]; years: readonly Option<number>[] },
) {
  const number = (text: string) => (text && Number.isInteger(Number(text)) ? Number(text) : null);
  const [day, month, year] = [number(chosen.day), number(chosen.month), number(chosen.year)];
  const mark = (list: readonly Option<number>[], exists: (value: number) => boolean) =>
    list.map((option) => (exists(option.value) ? option : { ...option, disabled: true }));
  return {
    days: month === null ? lists.days : mark(lists.days, (d) => d <= daysIn(year, month)),
    months: day === null ? lists.months : mark(lists.months, (m) => day <= daysIn(year, m)),
    years: day === null || month === null ? lists.years : mark(lists.years, (y) => day <= daysIn(y, month)),
  };
}

/**
 * 88 birth years, newest first, ending 12 years before the current year (spec: "about 12"; we take
 * exactly 12 so the list is the same on the screen and on the server for one day).
 */
export function birthYears(today: Date): Option<number>[] {
  const newest = today.getFullYear() - BIRTH_YEARS_END_OFFSET;
  return Array.from({ length: BIRTH_YEARS }, (_, i) => ({ value: newest - i, label: String(newest - i) }));
}

export const genders = (['Male', 'Female', 'Prefer not to say'] as const).map((g) => ({
  value: g,
  label: g,
})) satisfies readonly Option<Schemas['Gender']>[];
export type Gender = CodeOf<typeof genders>;

export const employmentStatuses = [
  { value: 'employedFullTime', label: 'Employed full time' },
  { value: 'employedPartTime', label: 'Employed part time' },
  { value: 'unemployed', label: 'Unemployed' },
  { value: 'notEmployedSickness', label: 'Not employed due to sickness or disability' },
  { value: 'retired', label: 'Retired' },
  { value: 'homemaker', label: 'Homemaker' },
] as const satisfies readonly Option<Schemas['EmploymentStatus']>[];
export type EmploymentStatus = CodeOf<typeof employmentStatuses>;

/** The non-employed group: choosing one hides and clears occupation, employer and years (spec section 4). */
const nonEmployedStatuses: readonly EmploymentStatus[] = ['unemployed', 'notEmployedSickness', 'retired', 'homemaker'];
export function isNonEmployed(status: unknown): boolean {
  return (nonEmployedStatuses as readonly unknown[]).includes(status);
}

/** Nationalities, British first, then alphabetical (the GOV.UK nationality list). */
export const nationalities: readonly Option<string>[] = [
  'British',
  'Afghan',
  'Albanian',
  'Algerian',
  'American',
  'Andorran',
  'Angolan',
  'Anguillan',
  'Argentine',
  'Armenian',
  'Australian',
  'Austrian',
  'Azerbaijani',
  'Bahamian',
  'Bahraini',
  'Bangladeshi',
  'Barbadian',
  'Belarusian',
  'Belgian',
  'Belizean',
  'Beninese',
  'Bermudian',
  'Bhutanese',
  'Bolivian',
  'Botswanan',
  'Brazilian',
  'British Virgin Islander',
  'Bruneian',
  'Bulgarian',
  'Burkinan',
  'Burmese',
  'Burundian',
  'Cambodian',
  'Cameroonian',
  'Canadian',
  'Cape Verdean',
  'Cayman Islander',
  'Central African',
  'Chadian',
  'Chilean',
  'Chinese',
  'Citizen of Antigua and Barbuda',
  'Citizen of Bosnia and Herzegovina',
  'Citizen of Guinea-Bissau',
  'Citizen of Kiribati',
  'Citizen of Seychelles',
  'Citizen of the Dominican Republic',
  'Citizen of Vanuatu',
  'Colombian',
  'Comoran',
  'Congolese (Congo)',
  'Congolese (DRC)',
  'Cook Islander',
  'Costa Rican',
  'Croatian',
  'Cuban',
  'Cypriot',
  'Czech',
  'Danish',
  'Djiboutian',
  'Dominican',
  'Dutch',
  'East Timorese',
  'Ecuadorean',
  'Egyptian',
  'Emirati',
  'English',
  'Equatorial Guinean',
  'Eritrean',
  'Estonian',
  'Ethiopian',
  'Faroese',
  'Fijian',
  'Filipino',
  'Finnish',
  'French',
  'Gabonese',
  'Gambian',
  'Georgian',
  'German',
  'Ghanaian',
  'Gibraltarian',
  'Greek',
  'Greenlandic',
  'Grenadian',
  'Guamanian',
  'Guatemalan',
  'Guinean',
  'Guyanese',
  'Haitian',
  'Honduran',
  'Hong Konger',
  'Hungarian',
  'Icelandic',
  'Indian',
  'Indonesian',
  'Iranian',
  'Iraqi',
  'Irish',
  'Israeli',
  'Italian',
  'Ivorian',
  'Jamaican',
  'Japanese',
  'Jordanian',
  'Kazakh',
  'Kenyan',
  'Kittitian',
  'Kosovan',
  'Kuwaiti',
  'Kyrgyz',
  'Lao',
  'Latvian',
  'Lebanese',
  'Liberian',
  'Libyan',
  'Liechtenstein citizen',
  'Lithuanian',
  'Luxembourger',
  'Macanese',
  'Macedonian',
  'Malagasy',
  'Malawian',
  'Malaysian',
  'Maldivian',
  'Malian',
  'Maltese',
  'Marshallese',
  'Martiniquais',
  'Mauritanian',
  'Mauritian',
  'Mexican',
  'Micronesian',
  'Moldovan',
  'Monegasque',
  'Mongolian',
  'Montenegrin',
  'Montserratian',
  'Moroccan',
  'Mosotho',
  'Mozambican',
  'Namibian',
  'Nauruan',
  'Nepalese',
  'New Zealander',
  'Nicaraguan',
  'Nigerian',
  'Nigerien',
  'Niuean',
  'North Korean',
  'Northern Irish',
  'Norwegian',
  'Omani',
  'Pakistani',
  'Palauan',
  'Palestinian',
  'Panamanian',
  'Papua New Guinean',
  'Paraguayan',
  'Peruvian',
  'Pitcairn Islander',
  'Polish',
  'Portuguese',
  'Puerto Rican',
  'Qatari',
  'Romanian',
  'Russian',
  'Rwandan',
  'Salvadorean',
  'Sammarinese',
  'Samoan',
  'Sao Tomean',
  'Saudi Arabian',
  'Scottish',
  'Senegalese',
  'Serbian',
  'Sierra Leonean',
  'Singaporean',
  'Slovak',
  'Slovenian',
  'Solomon Islander',
  'Somali',
  'South African',
  'South Korean',
  'South Sudanese',
  'Spanish',
  'Sri Lankan',
  'St Helenian',
  'St Lucian',
  'Stateless',
  'Sudanese',
  'Surinamese',
  'Swazi',
  'Swedish',
  'Swiss',
  'Syrian',
  'Taiwanese',
  'Tajik',
  'Tanzanian',
  'Thai',
  'Togolese',
  'Tongan',
  'Trinidadian',
  'Tristanian',
  'Tunisian',
  'Turkish',
  'Turkmen',
  'Turks and Caicos Islander',
  'Tuvaluan',
  'Ugandan',
  'Ukrainian',
  'Uruguayan',
  'Uzbek',
  'Vatican citizen',
  'Venezuelan',
  'Vietnamese',
  'Vincentian',
  'Wallisian',
  'Welsh',
  'Yemeni',
  'Zambian',
  'Zimbabwean',
].map((n) => ({ value: n, label: n }));

/** Dependant counts 0 to 29 (spec section 9). */
export const dependantCounts: readonly Option<number>[] = Array.from({ length: DEPENDANTS_MAX + 1 }, (_, i) => ({
  value: i,
  label: String(i),
}));

export const disputeLevels = [
  { value: 'optionA', label: 'Highly contentious' },
  { value: 'optionB', label: 'Contentious' },
  { value: 'optionC', label: 'Neutral' },
  { value: 'optionD', label: 'Cooperative' },
  { value: 'optionE', label: 'Amicable' },
] as const satisfies readonly Option<Schemas['DisputeLevel']>[];
export type DisputeLevel = CodeOf<typeof disputeLevels>;

export const completionBands = [
  { value: 'greater', label: 'Greater than 70%' },
  { value: 'less', label: 'Less than 70%' },
] as const satisfies readonly Option<Schemas['Completion']>[];
export type Completion = CodeOf<typeof completionBands>;

/** Asset types; the code 'eisureAndHobby' keeps the provider's spelling, the label does not. */
export const assetTypes = [
  { value: 'otherProperty', label: 'Other property' },
  // The spec's £5,000 cash threshold is shown in the label ('Cash sums over £5,000').
  { value: 'cashSums', label: `Cash sums over £${CASH_LABEL_THRESHOLD_POUNDS.toLocaleString('en-GB')}` },
  { value: 'estimateCurrentValue', label: 'Business interests (estimated current value)' },
  { value: 'savings', label: 'Savings' },
  { value: 'investments', label: 'Investments' },
  { value: 'pensions', label: 'Pensions' },
  { value: 'motorVehicles', label: 'Motor vehicles' },
  { value: 'eisureAndHobby', label: 'Leisure and hobby' },
  { value: 'personalItems', label: 'Personal items' },
  { value: 'other', label: 'Other' },
] as const satisfies readonly Option<Schemas['AssetType']>[];
export type AssetType = CodeOf<typeof assetTypes>;

export const addressEntryTypes = [
  { value: 'postcode', label: 'Find by postcode' },
  { value: 'manually', label: 'Enter manually' },
] as const satisfies readonly Option<Schemas['AddressEntryType']>[];
export type AddressEntryType = CodeOf<typeof addressEntryTypes>;

/** Cash holdings have a label threshold of £5,000 (spec section 3); the number lives in limits.ts. */
export { CASH_LABEL_THRESHOLD_POUNDS };

/** The label of a value in a list, or the value itself when it is not in the list (old data). */
export function optionLabel<V extends string | number>(list: readonly Option<V>[], value: unknown): string {
  const found = list.find((o) => o.value === value);
  return found ? found.label : value === undefined || value === null ? '' : String(value);
}
