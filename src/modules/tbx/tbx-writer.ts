/**
 * Streams TbxEntry values out as a TBX document: v3 DCA (`tbx`, conceptEntry/langSec/termSec) or v2
 * (`martif`, termEntry/langSet/tig), each as TBX-Basic (only TBX-Basic's categories and picklist values,
 * the rest as notes: tbx-basic.ts) or as the full dialect that keeps every category. The document is
 * produced as string chunks, a batch of entries at a time, so an export never holds the whole file in
 * memory; the consumer's pull (for await) is the back pressure.
 *
 * The core schemas allow `xml:space` on no element, so it is never written; instead the header's
 * sourceDesc says the file is Polyterm's, whose values are written exactly as stored, and the reader
 * keeps the whitespace of such files (POLYTERM_SOURCE_DESC).
 */
import { basicValue, type TbxLevel } from './tbx-basic.js';
import { POLYTERM_SOURCE_DESC } from './tbx-dialects.js';
import type { TbxEntry, TbxTerm, TbxTransaction, TbxValue } from './tbx-model.js';

export type { TbxLevel } from './tbx-basic.js';
export type TbxWriteDialect = 'TBX_V3_DCA' | 'TBX_V2';
/** `basic`: TBX-Basic, valid against its schemas; `full`: every category, valid against the core schema. */
export type TbxProfile = 'basic' | 'full';

export interface TbxWriteHeader {
  dialect: TbxWriteDialect;
  /** Default `basic`. */
  profile?: TbxProfile;
  /** xml:lang of the root (required by both dialects; `und` when unknown). */
  sourceLang: string | null;
  /** Written as fileDesc/titleStmt/title. */
  title: string | null;
}

export interface TbxWriteOptions {
  /**
   * Write every `<date>` as yyyy-MM-dd (always so in TBX-Basic v2, whose schema wants xsd:date). By
   * default a date is written as yyyy-MM-dd only when it falls on midnight UTC, and as a full ISO
   * date-time otherwise, so that import -> export -> import keeps the time of day.
   */
  dateOnly?: boolean;
  /** Whether a cross-reference target is the id of an entry or term of the document (default: yes). */
  isDocumentId?: (id: string) => boolean;
  /**
   * Filled with what TBX-Basic could not express as such (`written as note: …`, `mapped: …` -> count);
   * the document also ends with it as a comment.
   */
  report?: Map<string, number>;
  /** Filled with up to MAX_REPORT_EXAMPLES examples of the report's lines (at most 5 per line). */
  examples?: TbxReportExample[];
  /** Flush a chunk once the pending text reaches this many characters. */
  chunkChars?: number;
}

/** One value TBX-Basic could not express as such: where it was and how it was written instead. */
export interface TbxReportExample {
  /** The report line it counts under (`written as note: productSubset (not a TBX-Basic category)`). */
  what: string;
  /** The entry's id in the file. */
  entryId: string | null;
  level: 'concept' | 'language' | 'term';
  /** The language section's xml:lang (language and term level). */
  lang: string | null;
  /** The term's text (term level). */
  term: string | null;
  /** The value as the dictionary holds it. */
  value: string;
}

/** Examples kept in all, and per report line, so a report stays small whatever the export's size. */
export const MAX_REPORT_EXAMPLES = 100;
const MAX_EXAMPLES_PER_LINE = 5;

/** Elements a value can be written as, per level; termNote belongs to the term level only. */
type ValueElement = 'descrip' | 'termNote' | 'admin' | 'note' | 'ref' | 'xref';

const LEVEL_ELEMENTS: Record<TbxLevel, ReadonlySet<string>> = {
  entry: new Set(['descrip', 'admin', 'note', 'ref', 'xref']),
  lang: new Set(['descrip', 'admin', 'note', 'ref', 'xref']),
  term: new Set(['termNote', 'descrip', 'admin', 'note', 'ref', 'xref']),
};

function categories(element: ValueElement, names: string[]): [string, ValueElement][] {
  return names.map((name) => [name, element]);
}

/** The element TBX (core XCS and TBX-Basic) uses for a data category, when a value's own element does not fit. */
const CATEGORY_ELEMENT = new Map<string, ValueElement>([
  ...categories('descrip', [
    'definition',
    'context',
    'subjectField',
    'explanation',
    'example',
    'figure',
    'sampleSentence',
    'relatedConcept',
    'relatedConceptBroader',
    'relatedConceptNarrower',
    'associatedConcept',
    'characteristic',
    'conceptPosition',
    'unit',
  ]),
  ...categories('termNote', [
    'termType',
    'partOfSpeech',
    'administrativeStatus',
    'grammaticalGender',
    'grammaticalNumber',
    'geographicalUsage',
    'termLocation',
    'usageNote',
    'register',
    'normativeAuthorization',
    'pronunciation',
    'hyphenation',
    'etymology',
    'termProvenance',
    'transferComment',
    'abbreviatedFormFor',
    'shortFormFor',
    'antonymTerm',
    'processStatus',
    'frequency',
    'temporalQualifier',
    'timeRestriction',
    'proprietaryRestriction',
    'languagePlanningQualifier',
    'lionHotkey',
    'termStructure',
    'grammaticalValency',
    'directionality',
    'sortKey',
  ]),
  ...categories('admin', [
    'source',
    'customerSubset',
    'projectSubset',
    'originatingPerson',
    'originatingInstitution',
    'originatingDatabase',
    'entrySource',
    'conceptOrigin',
    'securitySubset',
    'sourceIdentifier',
    'businessUnitSubset',
    'applicationSubset',
    'environmentSubset',
    'productSubset',
    'elementWorkingStatus',
  ]),
  ...categories('note', ['note']),
  ...categories('ref', ['crossReference']),
  ...categories('xref', ['externalCrossReference', 'xGraphic', 'xSource']),
]);

const DEFAULT_CHUNK_CHARS = 64 * 1024;

interface DialectNames {
  entry: string;
  lang: string;
  term: string;
}

const NAMES: Record<TbxWriteDialect, DialectNames> = {
  TBX_V3_DCA: { entry: 'conceptEntry', lang: 'langSec', term: 'termSec' },
  TBX_V2: { entry: 'termEntry', lang: 'langSet', term: 'tig' },
};

// XML 1.0 allows only #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]; the other
// control characters (and lone surrogates, U+FFFE, U+FFFF) cannot be written even as character
// references, so they are dropped: a termbase value holding one is corrupt anyway, and keeping it would
// make the whole file unreadable.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const TEXT_SPECIAL = /[&<>\r]/g;
// In attributes tab, LF and CR are written as references too: attribute-value normalization would
// otherwise turn them into spaces. `>` is escaped everywhere, which also defuses `]]>`.
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/g;
// Plain text (no markup characters, no controls, no surrogates) is the common case and is returned as is.
const NEEDS_WORK = /[^\u0020\u0021\u0023-\u0025\u0027-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD]/;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
const entity = (char: string): string => ENTITY[char]!;

/** Character data: & < > escaped, CR kept as a reference (parsers turn a literal CR into LF). */
export function escapeXmlText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(NOT_XML_CHAR, '').replace(TEXT_SPECIAL, entity);
}

/** A double-quoted attribute value. */
export function escapeXmlAttribute(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(NOT_XML_CHAR, '').replace(ATTRIBUTE_SPECIAL, entity);
}

/**
 * The full dialect's element for a value: its own when the core structure allows it at this level, else
 * one by category. ref and xref need a target (the schemas require it on xref), note has no type.
 */
export function tbxElementFor(value: TbxValue, level: TbxLevel): ValueElement {
  const allowed = LEVEL_ELEMENTS[level];
  // <note> has no type and no target, so it only carries a plain note without losing anything.
  const fitsNote = (value.category === 'note' || value.category === '') && value.target === undefined;
  const fits = (element: string) =>
    allowed.has(element) &&
    (element !== 'note' || fitsNote) &&
    ((element !== 'ref' && element !== 'xref') || value.target !== undefined);
  if (fits(value.element)) return value.element as ValueElement;
  const byCategory = CATEGORY_ELEMENT.get(value.category);
  if (byCategory && fits(byCategory)) return byCategory;
  if (byCategory === 'admin' || value.element === 'admin') return 'admin';
  return level === 'term' && value.element !== 'descrip' ? 'termNote' : 'descrip';
}

/** Streams a TBX document, one chunk per batch of entries (never the whole document). */
export async function* writeTbx(
  header: TbxWriteHeader,
  entries: AsyncIterable<TbxEntry> | Iterable<TbxEntry>,
  options: TbxWriteOptions = {},
): AsyncGenerator<string> {
  const v2 = header.dialect === 'TBX_V2';
  const report = options.report ?? new Map<string, number>();
  const writer = new EntryWriter(
    NAMES[v2 ? 'TBX_V2' : 'TBX_V3_DCA'],
    // TBX-Basic v2 wants xsd:date; the full v2 dialect (core DTD: any text) keeps the time of day.
    (v2 && header.profile !== 'full') || (options.dateOnly ?? false),
    header.profile === 'full' ? null : { version: v2 ? 'v2' : 'v3', report },
    options.isDocumentId ?? (() => true),
    options.examples ?? [],
  );
  const chunkChars = options.chunkChars ?? DEFAULT_CHUNK_CHARS;

  yield v2 ? v2Prologue(header) : v3Prologue(header);
  let pending = '';
  for await (const entry of entries) {
    // Both versions require a language section with a term in every entry: a concept without terms
    // cannot be written, and is counted instead.
    if (!entry.languages.some((section) => section.terms.length > 0)) {
      const key = 'not written: concepts without terms (a TBX entry needs one)';
      report.set(key, (report.get(key) ?? 0) + 1);
      writer.example(key, { entryId: entry.id, level: 'concept', lang: null, term: null, value: '' });
      continue;
    }
    pending += writer.entry(entry);
    if (pending.length >= chunkChars) {
      yield pending;
      pending = '';
    }
  }
  yield `${pending}  </body>\n </text>\n${reportComment(report)}</${v2 ? 'martif' : 'tbx'}>\n`;
}

/** What the file could not express, as a comment before the end tag (`--` cannot occur in one). */
function reportComment(report: ReadonlyMap<string, number>): string {
  if (report.size === 0) return '';
  const lines = [...report].map(([what, count]) => `  ${count} x ${what}`.replace(/--/g, '- -'));
  return ` <!-- What this file could not express as such:\n${lines.join('\n')}\n -->\n`;
}

function fileDesc(header: TbxWriteHeader): string {
  const title =
    header.title === null ? '' : `   <titleStmt><title>${escapeXmlText(header.title)}</title></titleStmt>\n`;
  // Both dialects require a sourceDesc; ours tells our reader to keep the values' whitespace.
  return `  <fileDesc>\n${title}   <sourceDesc><p>${POLYTERM_SOURCE_DESC}</p></sourceDesc>\n  </fileDesc>\n`;
}

function v3Prologue(header: TbxWriteHeader): string {
  const lang = escapeXmlAttribute(header.sourceLang ?? 'und');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<tbx type="${header.profile === 'full' ? 'TBX-Polyterm' : 'TBX-Basic'}" style="dca" xml:lang="${lang}" xmlns="urn:iso:std:iso:30042:ed-2">\n` +
    ` <tbxHeader>\n${fileDesc(header)} </tbxHeader>\n <text>\n  <body>\n`
  );
}

function v2Prologue(header: TbxWriteHeader): string {
  const lang = escapeXmlAttribute(header.sourceLang ?? 'und');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    // The usual TBX v2 doctype; readers never fetch it (ours refuses to), tools that validate know it.
    '<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">\n' +
    `<martif type="${header.profile === 'full' ? 'TBX' : 'TBX-Basic'}" xml:lang="${lang}">\n <martifHeader>\n${fileDesc(header)}` +
    (header.profile === 'full'
      ? ''
      : '  <encodingDesc><p type="XCSURI">TBXBasicXCSV02.xcs</p></encodingDesc>\n') +
    ' </martifHeader>\n <text>\n  <body>\n'
  );
}

const LEVEL_OF: Record<TbxLevel, TbxReportExample['level']> = {
  entry: 'concept',
  lang: 'language',
  term: 'term',
};

const INDENT = ['', ' ', '  ', '   ', '    ', '     ', '      ', '       ', '        '];

const indent = (depth: number): string => INDENT[depth] ?? ' '.repeat(depth);

class EntryWriter {
  constructor(
    private readonly names: DialectNames,
    private readonly dateOnly: boolean,
    /** TBX-Basic's version and the account of what it could not express; null: the full dialect. */
    private readonly basic: { version: 'v3' | 'v2'; report: Map<string, number> } | null,
    private readonly isDocumentId: (id: string) => boolean,
    private readonly examples: TbxReportExample[],
  ) {}

  /** Where the writer is, for the report's examples. */
  private at: Omit<TbxReportExample, 'what' | 'value' | 'level'> = { entryId: null, lang: null, term: null };
  private readonly examplesPerLine = new Map<string, number>();

  /** Keeps an example of a report line while there is room (MAX_REPORT_EXAMPLES, 5 per line). */
  example(what: string, example: Omit<TbxReportExample, 'what'>) {
    const seen = this.examplesPerLine.get(what) ?? 0;
    if (this.examples.length >= MAX_REPORT_EXAMPLES || seen >= MAX_EXAMPLES_PER_LINE) return;
    this.examplesPerLine.set(what, seen + 1);
    this.examples.push({ what, ...example });
  }

  entry(entry: TbxEntry): string {
    const { names } = this;
    this.at = { entryId: entry.id, lang: null, term: null };
    const id = entry.id === null ? '' : ` id="${escapeXmlAttribute(entry.id)}"`;
    let out = `   <${names.entry}${id}>\n`;
    out += this.auxiliary(entry.values, entry.transactions, 'entry', 4);
    for (const section of entry.languages) {
      this.at = { entryId: entry.id, lang: section.lang, term: null };
      out += `    <${names.lang} xml:lang="${escapeXmlAttribute(section.lang)}">\n`;
      out += this.auxiliary(section.values, [], 'lang', 5);
      for (const term of section.terms) {
        this.at = { entryId: entry.id, lang: section.lang, term: term.term };
        out += this.term(term);
      }
      out += `    </${names.lang}>\n`;
    }
    return `${out}   </${names.entry}>\n`;
  }

  private term(term: TbxTerm): string {
    const { names } = this;
    const id = term.id === null ? '' : ` id="${escapeXmlAttribute(term.id)}"`;
    // The id sits on <term>, where both dialects allow it and where TBX v2 files carry it.
    return (
      `     <${names.term}>\n      <term${id}>${escapeXmlText(term.term)}</term>\n` +
      this.auxiliary(term.values, term.transactions, 'term', 6) +
      `     </${names.term}>\n`
    );
  }

  /** termNotes first (both dialects put them right after <term>), then transactions, then the rest. */
  private auxiliary(
    values: TbxValue[],
    transactions: TbxTransaction[],
    level: TbxLevel,
    depth: number,
  ): string {
    let termNotes = '';
    let rest = '';
    for (const value of values) {
      const [element, written] = this.fitted(value, level);
      if (element === 'termNote') termNotes += this.value(written, element, depth);
      else rest += this.value(written, element, depth);
    }
    let transacGrps = '';
    for (const transaction of transactions) transacGrps += this.transaction(transaction, depth);
    return termNotes + transacGrps + rest;
  }

  /** The element and value written: TBX-Basic's fit (counted when changed), or the full dialect's. */
  private fitted(value: TbxValue, level: TbxLevel): [ValueElement, TbxValue] {
    if (this.basic === null) {
      if (value.target === undefined) return [tbxElementFor(value, level), value];
      // ref targets are IDREFs: a target outside the document goes into an xref (anyURI).
      const internal =
        (value.element === 'ref' || value.category === 'crossReference') && this.isDocumentId(value.target);
      return [internal ? 'ref' : 'xref', value];
    }
    const fit = basicValue(value, level, this.basic.version, this.isDocumentId);
    if (fit.change) {
      const key = `${fit.change.kind === 'note' ? 'written as note' : 'mapped'}: ${fit.change.what}`;
      this.basic.report.set(key, (this.basic.report.get(key) ?? 0) + 1);
      const where = LEVEL_OF[level];
      this.example(key, {
        ...this.at,
        ...(where === 'concept' ? { lang: null, term: null } : where === 'language' ? { term: null } : {}),
        level: where,
        value: value.value,
      });
    }
    return [fit.element, fit.value];
  }

  private value(value: TbxValue, element: ValueElement, depth: number): string {
    let attributes = element === 'note' ? '' : ` type="${escapeXmlAttribute(value.category)}"`;
    if (value.target !== undefined && (element === 'ref' || element === 'xref')) {
      attributes += ` target="${escapeXmlAttribute(value.target)}"`;
    }
    return `${indent(depth)}<${element}${attributes}>${escapeXmlText(value.value)}</${element}>\n`;
  }

  private transaction(transaction: TbxTransaction, depth: number): string {
    const type = transaction.kind === 'created' ? 'origination' : 'modification';
    let out = `${indent(depth)}<transacGrp><transac type="transactionType">${type}</transac>`;
    const date = transaction.date === null ? null : this.formatDate(transaction.date);
    if (date !== null) out += `<date>${date}</date>`;
    if (transaction.responsibility !== null) {
      out += `<transacNote type="responsibility">${escapeXmlText(transaction.responsibility)}</transacNote>`;
    }
    return `${out}</transacGrp>\n`;
  }

  private formatDate(date: Date): string | null {
    const time = date.getTime();
    if (Number.isNaN(time)) return null;
    const iso = date.toISOString();
    return this.dateOnly || time % 86_400_000 === 0 ? iso.slice(0, 10) : iso;
  }
}
