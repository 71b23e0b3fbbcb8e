import { type DataCategoryKey, type FieldLevel, type FieldType, TbxDataCategories } from './field.entity.js';

export type TbxDataCategoryKey = (typeof TbxDataCategories)[number];
/** Every key that has a catalogue entry: all but GENERIC, which marks a custom field. */
export type CatalogueKey = Exclude<DataCategoryKey, 'GENERIC'>;

export interface PicklistItemInfo {
  readonly tbxName: string;
  /** Readable English label shown to users, e.g. 'preferred term'. */
  readonly name: string;
  readonly sortIndex: number;
}

/** The spec's DataCategory object. */
export interface DataCategoryInfo {
  readonly key: CatalogueKey;
  /** TBX data-category name (e.g. 'definition'); for system categories a readable English name. */
  readonly name: string;
  /**
   * ISO category id. TBX (ISO 30042) identifies a data category by its TBX name, which is what the
   * `type` attribute of a TBX element carries, so the TBX name is the id. System categories have no
   * ISO id: they use their key.
   */
  readonly id: string;
  /** The natural kind of a field standing for this category. */
  readonly fieldType: FieldType;
  readonly levels: readonly FieldLevel[];
  /**
   * The standard values of a TBX picklist. Empty for non-picklists and for the system picklists
   * (DOM, DICT, SECT, LANG, GVAR, OVAR) whose values are the dictionary's own objects.
   */
  readonly picklistItems: readonly PicklistItemInfo[];
}

const CONCEPT: readonly FieldLevel[] = ['CONCEPT'];
const TERM: readonly FieldLevel[] = ['TERM'];
const BOTH: readonly FieldLevel[] = ['CONCEPT', 'TERM'];

type Row<K extends CatalogueKey> = readonly [
  key: K,
  name: string,
  fieldType: FieldType,
  levels: readonly FieldLevel[],
];

// Levels follow the spec's lists of TBX concept-level and term-level fields; a category TBX allows at
// both levels is listed at both.
const TBX_ROWS: readonly Row<TbxDataCategoryKey>[] = [
  ['DEFINITION', 'definition', 'MULTILINE', BOTH],
  ['EXAMPLE', 'example', 'MULTILINE', BOTH],
  ['GRAMMATICAL_GENDER', 'grammaticalGender', 'PICKLIST', TERM],
  ['GRAMMATICAL_NUMBER', 'grammaticalNumber', 'PICKLIST', TERM],
  ['PROCESS_STATUS', 'processStatus', 'PICKLIST', TERM],
  ['SOURCE', 'source', 'SINGLELINE', BOTH],
  ['SOURCE_LANGUAGE', 'sourceLanguage', 'SINGLELINE', TERM],
  ['USAGE_NOTE', 'usageNote', 'MULTILINE', TERM],
  ['CONTEXT', 'context', 'MULTILINE', TERM],
  ['USAGE_STATUS', 'administrativeStatus', 'PICKLIST', TERM],
  ['TERM_TYPE', 'termType', 'PICKLIST', TERM],
  ['CONCEPT_ORIGIN', 'conceptOrigin', 'SINGLELINE', CONCEPT],
  ['CUSTOMER_SUBSET', 'customerSubset', 'SINGLELINE', BOTH],
  ['ENVIRONMENT_SUBSET', 'environmentSubset', 'SINGLELINE', BOTH],
  ['EXPLANATION', 'explanation', 'MULTILINE', CONCEPT],
  ['PRODUCT_SUBSET', 'productSubset', 'SINGLELINE', BOTH],
  ['PROJECT_SUBSET', 'projectSubset', 'SINGLELINE', BOTH],
  ['ANIMACY', 'animacy', 'PICKLIST', TERM],
  ['PART_OF_SPEECH', 'partOfSpeech', 'PICKLIST', TERM],
  ['SAMPLE_SENTENCE', 'sampleSentence', 'MULTILINE', TERM],
  ['TERM_LOCATION', 'termLocation', 'PICKLIST', TERM],
];

const SYSTEM_ROWS: readonly Row<Exclude<CatalogueKey, TbxDataCategoryKey>>[] = [
  ['DOM', 'Domain', 'MULTISELECT', CONCEPT],
  ['DICT', 'Dictionary', 'PICKLIST', CONCEPT],
  ['SECT', 'Section', 'PICKLIST', CONCEPT],
  ['SUBC', 'Subclass', 'SINGLELINE', CONCEPT],
  ['CONID', 'Concept ID', 'INCREMENTAL', CONCEPT],
  ['CREBY', 'Created by', 'SINGLELINE', CONCEPT],
  ['CREDATE', 'Creation date', 'DATE', CONCEPT],
  ['CHGBY', 'Changed by', 'SINGLELINE', CONCEPT],
  ['CHGDATE', 'Change date', 'DATE', CONCEPT],
  ['TERM', 'Term', 'SINGLELINE', TERM],
  ['LANG', 'Language', 'PICKLIST', TERM],
  ['GVAR', 'Geographical variant', 'PICKLIST', TERM],
  ['OVAR', 'Orthographical variant', 'PICKLIST', TERM],
  ['TERM_CONFIG', 'Term configuration', 'SINGLELINE', TERM],
  ['TCREBY', 'Term created by', 'SINGLELINE', TERM],
  ['TCREDATE', 'Term creation date', 'DATE', TERM],
  ['TCHGBY', 'Term changed by', 'SINGLELINE', TERM],
  ['TCHGDATE', 'Term change date', 'DATE', TERM],
  ['TERM_ID', 'Term ID', 'INCREMENTAL', TERM],
];

type Picklist = readonly (readonly [tbxName: string, name: string])[];

// TBX-Basic / TBX picklist values as [tbxName, readable label]; the order is the sort order.
const PICKLISTS: Partial<Record<TbxDataCategoryKey, Picklist>> = {
  GRAMMATICAL_GENDER: [
    ['masculine', 'masculine'],
    ['feminine', 'feminine'],
    ['neuter', 'neuter'],
    ['otherGender', 'other gender'],
  ],
  GRAMMATICAL_NUMBER: [
    ['singular', 'singular'],
    ['plural', 'plural'],
    ['dual', 'dual'],
    ['mass', 'mass noun'],
    ['otherNumber', 'other number'],
  ],
  PART_OF_SPEECH: [
    ['noun', 'noun'],
    ['verb', 'verb'],
    ['adjective', 'adjective'],
    ['adverb', 'adverb'],
    ['properNoun', 'proper noun'],
    ['other', 'other'],
  ],
  TERM_TYPE: [
    // TBX-Basic values first, then the further TBX values.
    ['fullForm', 'full form'],
    ['acronym', 'acronym'],
    ['abbreviation', 'abbreviation'],
    ['shortForm', 'short form'],
    ['variant', 'variant'],
    ['phrase', 'phrase'],
    ['abbreviatedForm', 'abbreviated form'],
    ['initialism', 'initialism'],
    ['clippedTerm', 'clipped term'],
    ['commonName', 'common name'],
    ['entryTerm', 'entry term'],
    ['equation', 'equation'],
    ['formula', 'formula'],
    ['internationalism', 'internationalism'],
    ['internationalScientificTerm', 'international scientific term'],
    ['logicalExpression', 'logical expression'],
    ['orthographicalVariant', 'orthographical variant'],
    ['partNumber', 'part number'],
    ['phraseologicalUnit', 'phraseological unit'],
    ['shortcut', 'shortcut'],
    ['sku', 'SKU'],
    ['standardText', 'standard text'],
    ['string', 'string'],
    ['symbol', 'symbol'],
    ['synonym', 'synonym'],
    ['synonymousPhrase', 'synonymous phrase'],
    ['transcribedForm', 'transcribed form'],
    ['transliteratedForm', 'transliterated form'],
    ['truncatedTerm', 'truncated term'],
  ],
  USAGE_STATUS: [
    ['preferredTerm-admn-sts', 'preferred term'],
    ['admittedTerm-admn-sts', 'admitted term'],
    ['deprecatedTerm-admn-sts', 'deprecated term'],
    ['supersededTerm-admn-sts', 'superseded term'],
    ['legalTerm-admn-sts', 'legal term'],
    ['regulatedTerm-admn-sts', 'regulated term'],
    ['standardizedTerm-admn-sts', 'standardized term'],
  ],
  PROCESS_STATUS: [
    ['unprocessed', 'unprocessed'],
    ['provisionallyProcessed', 'provisionally processed'],
    ['finalized', 'finalized'],
  ],
  ANIMACY: [
    ['animate', 'animate'],
    ['inanimate', 'inanimate'],
    ['otherAnimacy', 'other animacy'],
  ],
  TERM_LOCATION: [
    ['checkBox', 'check box'],
    ['comboBox', 'combo box'],
    ['comboBoxElement', 'combo box element'],
    ['dialogBox', 'dialog box'],
    ['groupBox', 'group box'],
    ['informativeMessage', 'informative message'],
    ['interactiveMessage', 'interactive message'],
    ['menuItem', 'menu item'],
    ['progressBar', 'progress bar'],
    ['pushButton', 'push button'],
    ['radioButton', 'radio button'],
    ['slider', 'slider'],
    ['spinBox', 'spin box'],
    ['tab', 'tab'],
    ['tableText', 'table text'],
    ['textBox', 'text box'],
    ['toolTip', 'tool tip'],
    ['user-definedType', 'user-defined type'],
  ],
};

const tbxKeys: ReadonlySet<string> = new Set(TbxDataCategories);

/** Whether a key names a TBX data category (not GENERIC, not a system category). */
export function isTbxCategory(key: string): key is TbxDataCategoryKey {
  return tbxKeys.has(key);
}

function toInfo([key, name, fieldType, levels]: Row<CatalogueKey>, id: string): DataCategoryInfo {
  const items = (isTbxCategory(key) ? PICKLISTS[key] : undefined) ?? [];
  return Object.freeze({
    key,
    name,
    id,
    fieldType,
    levels: Object.freeze([...levels]),
    picklistItems: Object.freeze(
      items.map(([tbxName, label], sortIndex) => Object.freeze({ tbxName, name: label, sortIndex })),
    ),
  });
}

/** Every TBX and system data category, in the order of DataCategoryKeys (GENERIC has no entry). */
export const DATA_CATEGORIES: readonly DataCategoryInfo[] = Object.freeze([
  ...TBX_ROWS.map((row) => toInfo(row, row[1])),
  ...SYSTEM_ROWS.map((row) => toInfo(row, row[0])),
]);

const byKey = new Map<string, DataCategoryInfo>(DATA_CATEGORIES.map((info) => [info.key, info]));

/** The catalogue entry of a data category; undefined for GENERIC and unknown keys. */
export function dataCategory(key: CatalogueKey): DataCategoryInfo;
export function dataCategory(key: string): DataCategoryInfo | undefined;
export function dataCategory(key: string): DataCategoryInfo | undefined {
  return byKey.get(key);
}
