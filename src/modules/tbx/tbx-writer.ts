/**
 * Streams TbxEntry values out as a TBX document: TBX-Basic v3 DCA (`tbx`, conceptEntry/langSec/termSec)
 * by default, or TBX v2 (`martif`, termEntry/langSet/tig) for older tools. The document is produced as
 * string chunks, a batch of entries at a time, so an export never holds the whole file in memory; the
 * consumer's pull (for await) is the back pressure.
 */
import type { TbxEntry, TbxTerm, TbxTransaction, TbxValue } from './tbx-model.js';

export type TbxWriteDialect = 'TBX_V3_DCA' | 'TBX_V2';

export interface TbxWriteHeader {
  dialect: TbxWriteDialect;
  /** xml:lang of the root (required by both dialects; `und` when unknown). */
  sourceLang: string | null;
  /** Written as fileDesc/titleStmt/title. */
  title: string | null;
}

export interface TbxWriteOptions {
  /**
   * Write every `<date>` as yyyy-MM-dd, as the TBX v3 schema (xsd:date) asks. By default a date is
   * written as yyyy-MM-dd only when it falls on midnight UTC, and as a full ISO date-time otherwise, so
   * that import -> export -> import keeps the time of day.
   */
  dateOnly?: boolean;
  /** Flush a chunk once the pending text reaches this many characters. */
  chunkChars?: number;
}

/** Elements a value can be written as, per level; termNote belongs to the term level only. */
type ValueElement = 'descrip' | 'termNote' | 'admin' | 'note' | 'ref' | 'xref';
export type TbxLevel = 'entry' | 'lang' | 'term';

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

/** Keeps the value's own element when TBX-Basic allows it at this level, else picks one by category. */
export function tbxElementFor(value: TbxValue, level: TbxLevel): ValueElement {
  const allowed = LEVEL_ELEMENTS[level];
  // <note> has no type and no target, so it only carries a plain note without losing anything.
  const fitsNote = (value.category === 'note' || value.category === '') && value.target === undefined;
  if (allowed.has(value.element) && (value.element !== 'note' || fitsNote)) {
    return value.element as ValueElement;
  }
  const byCategory = CATEGORY_ELEMENT.get(value.category);
  if (byCategory && allowed.has(byCategory) && (byCategory !== 'note' || fitsNote)) return byCategory;
  return level === 'term' ? 'termNote' : 'descrip';
}

/** Streams a TBX document, one chunk per batch of entries (never the whole document). */
export async function* writeTbx(
  header: TbxWriteHeader,
  entries: AsyncIterable<TbxEntry> | Iterable<TbxEntry>,
  options: TbxWriteOptions = {},
): AsyncGenerator<string> {
  const v2 = header.dialect === 'TBX_V2';
  const writer = new EntryWriter(NAMES[v2 ? 'TBX_V2' : 'TBX_V3_DCA'], options.dateOnly ?? false);
  const chunkChars = options.chunkChars ?? DEFAULT_CHUNK_CHARS;

  yield v2 ? v2Prologue(header) : v3Prologue(header);
  let pending = '';
  for await (const entry of entries) {
    pending += writer.entry(entry);
    if (pending.length >= chunkChars) {
      yield pending;
      pending = '';
    }
  }
  yield `${pending}  </body>\n </text>\n</${v2 ? 'martif' : 'tbx'}>\n`;
}

function fileDesc(header: TbxWriteHeader): string {
  const title =
    header.title === null ? '' : `   <titleStmt><title>${escapeXmlText(header.title)}</title></titleStmt>\n`;
  // Both dialects require a sourceDesc.
  return `  <fileDesc>\n${title}   <sourceDesc><p>Exported from Polyterm</p></sourceDesc>\n  </fileDesc>\n`;
}

function v3Prologue(header: TbxWriteHeader): string {
  const lang = escapeXmlAttribute(header.sourceLang ?? 'und');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<tbx type="TBX-Basic" style="dca" xml:lang="${lang}" xmlns="urn:iso:std:iso:30042:ed-2">\n` +
    ` <tbxHeader>\n${fileDesc(header)} </tbxHeader>\n <text>\n  <body>\n`
  );
}

function v2Prologue(header: TbxWriteHeader): string {
  const lang = escapeXmlAttribute(header.sourceLang ?? 'und');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    // The usual TBX v2 doctype; readers never fetch it (ours refuses to), tools that validate know it.
    '<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">\n' +
    `<martif type="TBX-Basic" xml:lang="${lang}">\n <martifHeader>\n${fileDesc(header)}` +
    '  <encodingDesc><p type="XCSURI">TBXBasicXCSV02.xcs</p></encodingDesc>\n' +
    ' </martifHeader>\n <text>\n  <body>\n'
  );
}

const INDENT = ['', ' ', '  ', '   ', '    ', '     ', '      ', '       ', '        '];
/** Text that whitespace collapsing would change: line breaks, tabs, runs of spaces, outer spaces. */
const NEEDS_PRESERVE = /[\r\n\t]| {2}|^ | $/;

const indent = (depth: number): string => INDENT[depth] ?? ' '.repeat(depth);

class EntryWriter {
  constructor(
    private readonly names: DialectNames,
    private readonly dateOnly: boolean,
  ) {}

  entry(entry: TbxEntry): string {
    const { names } = this;
    const id = entry.id === null ? '' : ` id="${escapeXmlAttribute(entry.id)}"`;
    let out = `   <${names.entry}${id}>\n`;
    out += this.auxiliary(entry.values, entry.transactions, 'entry', 4);
    for (const section of entry.languages) {
      out += `    <${names.lang} xml:lang="${escapeXmlAttribute(section.lang)}">\n`;
      out += this.auxiliary(section.values, [], 'lang', 5);
      for (const term of section.terms) out += this.term(term);
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
      const element = tbxElementFor(value, level);
      const written = this.value(value, element, depth);
      if (element === 'termNote') termNotes += written;
      else rest += written;
    }
    let transacGrps = '';
    for (const transaction of transactions) transacGrps += this.transaction(transaction, depth);
    return termNotes + transacGrps + rest;
  }

  private value(value: TbxValue, element: ValueElement, depth: number): string {
    let attributes = element === 'note' ? '' : ` type="${escapeXmlAttribute(value.category)}"`;
    if (value.target !== undefined && element !== 'note') {
      attributes += ` target="${escapeXmlAttribute(value.target)}"`;
    }
    // Readers collapse whitespace runs unless told otherwise: keep line breaks and spacing as stored.
    if (NEEDS_PRESERVE.test(value.value)) attributes += ' xml:space="preserve"';
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
