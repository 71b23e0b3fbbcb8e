/**
 * TBX-Basic on export (docs/tbx.md, Dialects): which data categories TBX-Basic has at which level (v3:
 * the TBX-Basic DCA Schematron; v2: the TBX-Basic v2 RELAX NG and its embedded rules), and how a
 * dictionary's values are fitted onto them. A value of a category TBX-Basic lacks at the level, or a
 * picklist value it has no counterpart for, is written as a plain `<note>` ("category: value") and
 * counted, so the export says what it could not express instead of dropping it.
 */
import { BUNDLE_PATH } from '../attachment/attachment-tbx.js';
import type { TbxValue } from './tbx-model.js';

export type TbxLevel = 'entry' | 'lang' | 'term';
export type TbxVersion = 'v3' | 'v2';
type BasicElement = 'descrip' | 'admin' | 'termNote' | 'ref' | 'xref';

const rows = (element: BasicElement, levels: string, names: string[]) =>
  names.map((name) => [name, { element, levels: levels.split(',') }] as const);

/** TBX-Basic categories: their element and the levels they may occur at. */
const BASIC_V3 = new Map<string, { element: BasicElement; levels: readonly string[] }>([
  ...rows('descrip', 'entry', ['subjectField']),
  ...rows('descrip', 'entry,lang', ['definition']),
  ...rows('descrip', 'term', ['context']),
  ...rows('admin', 'entry,term', ['customerSubset', 'projectSubset']),
  ...rows('admin', 'entry,lang,term', ['source']),
  ...rows('termNote', 'term', [
    'administrativeStatus',
    'partOfSpeech',
    'geographicalUsage',
    'grammaticalGender',
    'termLocation',
    'termType',
  ]),
  ...rows('ref', 'entry,term', ['crossReference']),
  ...rows('xref', 'entry,lang,term', ['externalCrossReference']),
  ...rows('xref', 'entry,lang', ['xGraphic']),
]);

/** v2 TBX-Basic: subsets only on tig, no ref/xref on langSet, graphics only on termEntry. */
const BASIC_V2 = new Map(BASIC_V3);
BASIC_V2.set('customerSubset', { element: 'admin', levels: ['term'] });
BASIC_V2.set('projectSubset', { element: 'admin', levels: ['term'] });
BASIC_V2.set('externalCrossReference', { element: 'xref', levels: ['entry', 'term'] });
BASIC_V2.set('xGraphic', { element: 'xref', levels: ['entry'] });

const picklist = (values: string[], synonyms: Record<string, string> = {}) => {
  const map = new Map<string, string>();
  for (const value of values) map.set(value.toLowerCase(), value);
  for (const [synonym, value] of Object.entries(synonyms)) map.set(synonym.toLowerCase(), value);
  return map;
};

const STATUS = picklist(
  ['preferredTerm-admn-sts', 'admittedTerm-admn-sts', 'deprecatedTerm-admn-sts', 'supersededTerm-admn-sts'],
  {
    // ISO 12620's other statuses, onto the nearest TBX-Basic one.
    'standardizedTerm-admn-sts': 'preferredTerm-admn-sts',
    'legalTerm-admn-sts': 'admittedTerm-admn-sts',
    'regulatedTerm-admn-sts': 'admittedTerm-admn-sts',
    'notRecommended-admn-sts': 'deprecatedTerm-admn-sts',
    'obsoleteTerm-admn-sts': 'supersededTerm-admn-sts',
    // Polyterm's forbidden terms (tbx-status-mapping.ts), as memoQ and Pontoon write theirs.
    'forbiddenTerm-admn-sts': 'deprecatedTerm-admn-sts',
  },
);
const TERM_TYPES = picklist(['fullForm', 'acronym', 'abbreviation', 'shortForm', 'variant', 'phrase'], {
  abbreviatedForm: 'abbreviation',
  initialism: 'acronym',
  clippedTerm: 'shortForm',
  shortcut: 'shortForm',
  orthographicalVariant: 'variant',
  synonym: 'variant',
  fullFormOfName: 'fullForm',
  entryTerm: 'fullForm',
  setPhrase: 'phrase',
});
const GENDER = picklist(['masculine', 'feminine', 'neuter', 'other'], { otherGender: 'other' });
const TERM_LOCATION = picklist([
  'checkBox',
  'comboBox',
  'comboBoxElement',
  'dialogBox',
  'groupBox',
  'informativeMessage',
  'interactiveMessage',
  'menuItem',
  'progressBar',
  'pushButton',
  'radioButton',
  'slider',
  'spinBox',
  'tab',
  'tableText',
  'textBox',
  'toolTip',
  'user-definedType',
]);

const PICKLISTS: Record<TbxVersion, Record<string, Map<string, string>>> = {
  v3: {
    administrativeStatus: STATUS,
    termType: TERM_TYPES,
    grammaticalGender: GENDER,
    termLocation: TERM_LOCATION,
    partOfSpeech: picklist(['adjective', 'noun', 'other', 'verb', 'adverb'], { properNoun: 'noun' }),
  },
  v2: {
    administrativeStatus: STATUS,
    termType: TERM_TYPES,
    grammaticalGender: GENDER,
    termLocation: TERM_LOCATION,
    partOfSpeech: picklist(['adjective', 'noun', 'other', 'verb', 'adverb', 'properNoun']),
  },
};

const HTTP_URL = /^https?:\/\/\S+$/;
/** A file of a TBX bundle (docs/attachments.md): a relative reference into the same zip. */
const bundled = (value: TbxValue) =>
  (value.category === 'xGraphic' || value.category === 'xSource') && BUNDLE_PATH.test(value.target ?? '');

/** A value as TBX-Basic writes it: its element, or `note` when TBX-Basic cannot express it. */
export interface BasicValue {
  element: BasicElement | 'note';
  value: TbxValue;
  /** Why the value was changed, for the export's account (`partOfSpeech "Noun" -> "noun"`). */
  change?: { kind: 'mapped' | 'note'; what: string };
}

/**
 * Fits a value onto TBX-Basic at a level. `ids` tells whether a cross-reference target is an id of the
 * document (TBX-Basic requires internal targets to be ids, external ones http(s) URLs).
 */
export function basicValue(
  value: TbxValue,
  level: TbxLevel,
  version: TbxVersion,
  isDocumentId: (id: string) => boolean,
): BasicValue {
  const category = value.category;
  const plainNote = (category === 'note' || category === '') && value.target === undefined;
  if (plainNote) return { element: 'note', value };
  const rule = (version === 'v3' ? BASIC_V3 : BASIC_V2).get(category);
  let reason: string | null = null;
  if (!rule) reason = `${category} (not a TBX-Basic category)`;
  else if (!rule.levels.includes(level)) reason = `${category} at ${LEVEL_NAMES[level]} level`;
  else if (rule.element === 'ref' && !(value.target && isDocumentId(value.target))) {
    reason = `${category} without a target in the file`;
  } else if (rule.element === 'xref' && !HTTP_URL.test(value.target ?? '') && !bundled(value)) {
    reason = `${category} whose target is not an http(s) URL`;
  }
  if (rule && reason === null) {
    const allowed = PICKLISTS[version][category];
    if (!allowed) return { element: rule.element, value };
    const mapped = allowed.get(value.value.toLowerCase());
    if (mapped === value.value) return { element: rule.element, value };
    if (mapped !== undefined) {
      return {
        element: rule.element,
        value: { ...value, value: mapped },
        change: { kind: 'mapped', what: `${category} "${value.value}" as "${mapped}"` },
      };
    }
    reason = `${category} "${value.value}" (not a TBX-Basic value)`;
  }
  const target = value.target && value.target !== value.value ? ` <${value.target}>` : '';
  return {
    element: 'note',
    value: { category: 'note', element: 'note', value: `${category}: ${value.value}${target}` },
    change: { kind: 'note', what: reason ?? category },
  };
}

const LEVEL_NAMES: Record<TbxLevel, string> = { entry: 'concept', lang: 'language', term: 'term' };
