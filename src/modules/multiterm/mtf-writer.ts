/**
 * Streams TbxEntry values out as MultiTerm XML (`<mtf>`), the format RWS MultiTerm imports, from the
 * same entries the TBX export reads (docs/exchange.md). UTF-8, a batch of entries per chunk, never the
 * whole document in memory.
 *
 * Every value is a descripGrp with the field's name (MultiTerm's template names for the TBX categories it
 * knows: Definition, Note, Source, Subject, Status…, else the dictionary's field name); a cross-reference
 * is an xref with Clink (the target entry's id), a link an xref with Ulink; the entry's processStatus is
 * `<system type="status">`. MultiTerm numbers its entries, so `<concept>` is the position in the file and
 * the concept's id travels in an `originalId` field, which the import reads back.
 */

import { exportedValue } from '../tbx/field-names.js';
import type { TbxEntry, TbxTransaction, TbxValue } from '../tbx/tbx-model.js';
import type { TbxReportExample } from '../tbx/tbx-writer.js';
import { escapeXmlAttribute, escapeXmlText } from '../tbx/tbx-writer.js';
import type { MtfLevel } from './mtf-definition.js';
import type { MtfDefinitionCollector } from './mtf-definition-writer.js';
import { systemStatusOf } from './mtf-vocabulary.js';

export interface MtfWriteOptions {
  /** Filled with what could not be written (concepts without terms) -> count. */
  report?: Map<string, number>;
  examples?: TbxReportExample[];
  chunkChars?: number;
  /** Learns the fields, levels and indexes written, for the termbase definition (.xdt) beside it. */
  definition?: MtfDefinitionCollector;
}

const DEFAULT_CHUNK_CHARS = 256 * 1024;
const NO_TERMS = 'not written: concepts without terms (a MultiTerm entry needs one)';
const languageNames = new Intl.DisplayNames(['en'], {
  type: 'language',
  languageDisplay: 'standard',
  fallback: 'code',
});

/** Streams a MultiTerm XML document, one chunk per batch of entries. */
export async function* writeMtf(
  entries: AsyncIterable<TbxEntry> | Iterable<TbxEntry>,
  options: MtfWriteOptions = {},
): AsyncGenerator<string> {
  const report = options.report ?? new Map<string, number>();
  const chunkChars = options.chunkChars ?? DEFAULT_CHUNK_CHARS;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<mtf>\n';
  let pending = '';
  let number = 0;
  for await (const entry of entries) {
    if (!entry.languages.some((section) => section.terms.length > 0)) {
      report.set(NO_TERMS, (report.get(NO_TERMS) ?? 0) + 1);
      if ((options.examples?.length ?? Number.POSITIVE_INFINITY) < 100) {
        options.examples?.push({
          what: NO_TERMS,
          entryId: entry.id,
          level: 'concept',
          lang: null,
          term: null,
          value: '',
        });
      }
      continue;
    }
    pending += conceptGroup(entry, ++number, options.definition);
    if (pending.length >= chunkChars) {
      yield pending;
      pending = '';
    }
  }
  yield `${pending}</mtf>\n`;
}

function conceptGroup(entry: TbxEntry, number: number, definition?: MtfDefinitionCollector): string {
  const descrip = (value: TbxValue, indent: string, level: MtfLevel) =>
    descripGroup(value, indent, level, definition);
  const status = entry.values.find((value) => value.category === 'processStatus');
  const system = status ? systemStatusOf(status.value) : null;
  const own = withId(
    entry.id,
    entry.values.filter((value) => value !== status || system === null),
  );
  let xml = `  <conceptGrp>\n    <concept>${number}</concept>\n`;
  if (system) xml += `    <system type="status">${system}</system>\n`;
  xml += transactions(entry.transactions, '    ');
  for (const value of own) xml += descrip(value, '    ', 'CONCEPT');
  for (const section of entry.languages) {
    if (section.terms.length === 0) continue;
    const tag = (section.lang || 'und').replaceAll('_', '-');
    xml += '    <languageGrp>\n';
    const name = languageName(tag);
    definition?.language(tag.toUpperCase(), name);
    xml += `      <language type="${escapeXmlAttribute(name)}" lang="${escapeXmlAttribute(tag.toUpperCase())}"/>\n`;
    for (const value of section.values) xml += descrip(value, '      ', 'LANGUAGE');
    for (const term of section.terms) {
      xml += `      <termGrp>\n        <term>${escapeXmlText(term.term)}</term>\n`;
      xml += transactions(term.transactions, '        ');
      for (const value of withId(term.id, term.values)) xml += descrip(value, '        ', 'TERM');
      xml += '      </termGrp>\n';
    }
    xml += '    </languageGrp>\n';
  }
  return `${xml}  </conceptGrp>\n`;
}

/**
 * The values with the id first, as an originalId field (the id cross-references name). An oid that is no
 * XML id follows as a second originalId value (the full dialect carries it so); the reader takes that one
 * as the oid and the first as the id Clinks name.
 */
function withId(id: string | null | undefined, values: readonly TbxValue[]): TbxValue[] {
  return id ? [{ category: 'originalId', element: 'admin', value: id }, ...values] : [...values];
}

function descripGroup(
  value: TbxValue,
  indent: string,
  level: MtfLevel,
  definition?: MtfDefinitionCollector,
): string {
  // An ATTACHMENT value: MultiTerm's multimedia field, under the field's own name, its file as a Ulink
  // (a path in the package, or the download URL).
  if (value.fieldName !== undefined && value.target !== undefined) {
    definition?.field(value.fieldName, level, value.value, 'MULTIMEDIA');
    const link = `<xref Ulink="${escapeXmlAttribute(value.target)}" type="Multimedia">${escapeXmlText(value.value)}</xref>`;
    return `${indent}<descripGrp><descrip type="${escapeXmlAttribute(value.fieldName)}">${link}</descrip></descripGrp>\n`;
  }
  const { name, value: text } = exportedValue(value.category, value.value);
  definition?.field(name, level, text);
  let content = escapeXmlText(text);
  if (value.target !== undefined) {
    const link = value.category === 'crossReference' ? 'Clink' : 'Ulink';
    content = `<xref ${link}="${escapeXmlAttribute(value.target)}">${content}</xref>`;
  }
  return `${indent}<descripGrp><descrip type="${escapeXmlAttribute(name)}">${content}</descrip></descripGrp>\n`;
}

function transactions(list: readonly TbxTransaction[], indent: string): string {
  return list
    .map((tx) => {
      const type = tx.kind === 'created' ? 'origination' : 'modification';
      const date = tx.date ? `<date>${tx.date.toISOString()}</date>` : '';
      return `${indent}<transacGrp><transac type="${type}">${escapeXmlText(tx.responsibility ?? '')}</transac>${date}</transacGrp>\n`;
    })
    .join('');
}

/** MultiTerm names an index by its language's English name (`English`, `English (United States)`). */
export function languageName(tag: string): string {
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}
