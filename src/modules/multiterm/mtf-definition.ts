/**
 * MultiTerm's termbase definition (the `.xdt` file MultiTerm saves beside an XML export, docs/exchange.md):
 * the termbase's indexes (languages with their locales) and descriptive fields (label, type, picklist
 * values) and the entry structure placing each field at entry, index or term level.
 *
 * MultiTerm documents the model (RWS's TermbaseDefinition and DescriptiveField API: Label, Type, Level,
 * PicklistValues) but not the file's schema, and versions spell elements differently, so the reader goes
 * by what elements hold rather than by one schema: under an element named Languages or Indexes, an item
 * with a name and a locale is a language; under Fields or DescriptiveFields, an item with a name (and a
 * type) is a field, and the texts under its picklist element are the picklist's values; under
 * EntryStructure, a field named inside ConceptGrp, LanguageGrp or TermGrp (or Entry, Index, Term) is at
 * that level. Element names are compared without case. No DTD is processed, as for the XML itself.
 */
import { open } from 'node:fs/promises';
import { SaxesParser } from 'saxes';
import { ByteDecoder } from '../tbx/tbx-byte-decoder.js';
import { TbxFormatError } from '../tbx/tbx-reader.js';

export type MtfLevel = 'CONCEPT' | 'LANGUAGE' | 'TERM';
export type MtfFieldType = 'TEXT' | 'PICKLIST' | 'NUMBER' | 'DATE' | 'BOOLEAN' | 'MULTIMEDIA';

export interface MtfDefinitionField {
  name: string;
  type: MtfFieldType;
  picklist: string[];
  /** Where the entry structure places it; empty when the definition does not say. */
  levels: MtfLevel[];
}

export interface MtfDefinition {
  name: string | null;
  languages: { name: string; locale: string }[];
  fields: MtfDefinitionField[];
}

/** A definition is a few kilobytes; anything much larger is no termbase definition. */
const MAX_DEFINITION_BYTES = 4 * 1024 * 1024;

interface Node {
  name: string;
  attributes: Record<string, string>;
  children: Node[];
  text: string;
}

/** Reads a termbase definition file (TbxFormatError when it is no readable XML). */
export async function readMtfDefinition(path: string): Promise<MtfDefinition> {
  const file = await open(path, 'r');
  let bytes: Uint8Array;
  try {
    const { size } = await file.stat();
    if (size > MAX_DEFINITION_BYTES) {
      throw new TbxFormatError(0, `the termbase definition is larger than ${MAX_DEFINITION_BYTES} bytes`);
    }
    bytes = new Uint8Array(size);
    await file.read(bytes, 0, size, 0);
  } finally {
    await file.close();
  }
  return definitionOf(parseTree(bytes));
}

function parseTree(bytes: Uint8Array): Node {
  const decoder = new ByteDecoder();
  let text: string;
  try {
    text = decoder.decode(bytes) + decoder.end();
  } catch {
    throw new TbxFormatError(0, 'the termbase definition is not valid text in its encoding');
  }
  const parser = new SaxesParser({ xmlns: false, position: true });
  const root: Node = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: Node[] = [root];
  parser.on('doctype', (doctype) => {
    if (doctype.replace(/"[^"]*"|'[^']*'/g, '').includes('[')) {
      throw new TbxFormatError(parser.line, 'the DOCTYPE has an internal subset: DTDs are not allowed');
    }
  });
  parser.on('opentag', (tag) => {
    const node: Node = { name: tag.name.toLowerCase(), attributes: tag.attributes, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('text', (chunk) => {
    stack.at(-1)!.text += chunk;
  });
  parser.on('cdata', (chunk) => {
    stack.at(-1)!.text += chunk;
  });
  parser.on('error', (error) => {
    throw new TbxFormatError(parser.line, `termbase definition: ${error.message.replace(/^\d+:\d+: /, '')}`);
  });
  parser.write(text).close();
  if (root.children.length === 0) throw new TbxFormatError(0, 'the termbase definition has no root element');
  return root.children[0]!;
}

/** In order of preference. */
const NAME_ELEMENTS = ['name', 'label', 'fieldname', 'language'];
const LOCALE_ELEMENTS = ['locale', 'lang', 'languagecode', 'culture'];
const LEVEL_OF: Record<string, MtfLevel> = {
  conceptgrp: 'CONCEPT',
  entry: 'CONCEPT',
  entrylevel: 'CONCEPT',
  languagegrp: 'LANGUAGE',
  index: 'LANGUAGE',
  indexlevel: 'LANGUAGE',
  termgrp: 'TERM',
  term: 'TERM',
  termlevel: 'TERM',
};

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
/** A value given as a child element's text or as an attribute, by the first name that has one. */
function given(node: Node, names: string[]): string | null {
  for (const name of names) {
    const element = node.children.find((c) => c.name === name && c.children.length === 0);
    if (element && squash(element.text)) return squash(element.text);
    const attribute = Object.entries(node.attributes).find(([key]) => key.toLowerCase() === name)?.[1];
    if (attribute?.trim()) return attribute.trim();
  }
  return null;
}

function* descendants(node: Node): Generator<Node> {
  for (const c of node.children) {
    yield c;
    yield* descendants(c);
  }
}

const sections = (root: Node, names: string[]) =>
  [...descendants(root)].filter((n) => names.includes(n.name));

function definitionOf(root: Node): MtfDefinition {
  const languages = new Map<string, { name: string; locale: string }>();
  for (const section of sections(root, ['languages', 'indexes'])) {
    for (const node of descendants(section)) {
      const locale = given(node, LOCALE_ELEMENTS);
      const name = given(node, NAME_ELEMENTS);
      if (!locale) continue;
      if (!languages.has(locale.toLowerCase()))
        languages.set(locale.toLowerCase(), { name: name ?? locale, locale });
    }
  }
  const fields = new Map<string, MtfDefinitionField>();
  for (const section of sections(root, ['fields', 'descriptivefields'])) {
    for (const node of section.children.flatMap((c) => (given(c, NAME_ELEMENTS) ? [c] : c.children))) {
      const name = given(node, NAME_ELEMENTS);
      if (!name || fields.has(name.toLowerCase())) continue;
      const picklistNode = node.children.find((c) => c.name.startsWith('picklist'));
      const picklist = picklistNode
        ? [...descendants(picklistNode)]
            .filter((n) => n.children.length === 0)
            .map((n) => squash(n.text))
            .filter(Boolean)
        : [];
      fields.set(name.toLowerCase(), {
        name,
        type: typeOf(given(node, ['type', 'datatype', 'fieldtype']), picklist),
        picklist,
        levels: [],
      });
    }
  }
  for (const structure of sections(root, ['entrystructure'])) placeFields(structure, null, fields);
  return {
    name: given(root, ['name', 'termbasename']),
    languages: [...languages.values()],
    fields: [...fields.values()],
  };
}

/** Marks the level of each field the structure names inside a level element. */
function placeFields(node: Node, level: MtfLevel | null, fields: Map<string, MtfDefinitionField>): void {
  for (const c of node.children) {
    const inner = LEVEL_OF[c.name] ?? level;
    const named = given(c, NAME_ELEMENTS) ?? (c.children.length === 0 ? squash(c.text) : null);
    const field = named ? fields.get(named.toLowerCase()) : undefined;
    if (field && inner && !field.levels.includes(inner)) field.levels.push(inner);
    placeFields(c, inner, fields);
  }
}

function typeOf(text: string | null, picklist: string[]): MtfFieldType {
  const type = (text ?? '').toLowerCase();
  if (type.includes('pick') || (picklist.length > 0 && !type)) return 'PICKLIST';
  if (type.includes('number') || type.includes('integer')) return 'NUMBER';
  if (type.includes('date')) return 'DATE';
  if (type.includes('bool') || type.includes('yes')) return 'BOOLEAN';
  if (type.includes('multimedia') || type.includes('media')) return 'MULTIMEDIA';
  return 'TEXT';
}
