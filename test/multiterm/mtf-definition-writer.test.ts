/**
 * The .xdt Polyterm writes (mtf-definition-writer.ts), checked element by element against what RWS
 * documents of a termbase definition (docs/exchange.md, "Termbase definition"): no public .xdt sample was
 * found to compare with, so the check is against the documented model. MultiTerm's API reference
 * (TermbaseDefinition, DescriptiveField) names a field's Label, Type (text, number, Boolean, date/time,
 * picklist, multimedia file), Level (entry, index, term), Mandatory, Multiple and PicklistValues; a
 * termbase has indexes, each a language with its locale; Termbases.New creates a termbase from the .xdt.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { expect, it } from 'vitest';
import { type MtfDefinition, readMtfDefinition } from '../../src/modules/multiterm/mtf-definition.js';
import { writeMtfDefinition } from '../../src/modules/multiterm/mtf-definition-writer.js';

interface Element {
  name: string;
  children: Element[];
  text: string;
}

function tree(xml: string): Element {
  const root: Element = { name: '#', children: [], text: '' };
  const stack = [root];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, children: [], text: '' };
    stack.at(-1)!.children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => stack.pop());
  parser.on('text', (text) => {
    stack.at(-1)!.text += text;
  });
  parser.write(xml).close();
  return root.children[0]!;
}

const child = (element: Element, name: string) => element.children.find((c) => c.name === name);
const textOf = (element: Element, name: string) => child(element, name)?.text.trim();

const DEFINITION: MtfDefinition = {
  name: 'Werkzeuge & Maschinen',
  languages: [
    { name: 'German', locale: 'DE' },
    { name: 'English (United Kingdom)', locale: 'EN-GB' },
  ],
  fields: [
    { name: 'Definition', type: 'TEXT', picklist: [], levels: ['CONCEPT', 'LANGUAGE'] },
    { name: 'Status', type: 'PICKLIST', picklist: ['preferred', 'admitted'], levels: ['TERM'] },
    { name: 'Seite', type: 'NUMBER', picklist: [], levels: ['TERM'] },
    { name: 'Geprüft am', type: 'DATE', picklist: [], levels: ['CONCEPT'] },
    { name: 'Freigegeben', type: 'BOOLEAN', picklist: [], levels: ['CONCEPT'] },
    { name: 'Abbildung', type: 'MULTIMEDIA', picklist: [], levels: ['CONCEPT', 'TERM'] },
  ],
};

it('writes every property of the documented model, each in its place, and reads back the same', async () => {
  const xml = writeMtfDefinition(DEFINITION);
  const root = tree(xml);
  expect(root.name).toBe('TermbaseDefinition');
  expect(textOf(root, 'Name')).toBe('Werkzeuge & Maschinen');

  // Indexes: each a language with its locale.
  const indexes = child(child(root, 'Languages')!, 'ItemsList')!.children;
  expect(indexes.map((item) => [item.name, textOf(item, 'Name'), textOf(item, 'Locale')])).toEqual([
    ['Item', 'German', 'DE'],
    ['Item', 'English (United Kingdom)', 'EN-GB'],
  ]);

  // Descriptive fields: a label and one of the six documented types; a picklist's values.
  const fields = child(child(root, 'Fields')!, 'ItemsList')!.children;
  expect(fields.map((item) => [textOf(item, 'Name'), textOf(item, 'Type')])).toEqual([
    ['Definition', 'Text'],
    ['Status', 'Picklist'],
    ['Seite', 'Number'],
    ['Geprüft am', 'Date'],
    ['Freigegeben', 'Boolean'],
    ['Abbildung', 'Multimedia'],
  ]);
  const status = fields.find((item) => textOf(item, 'Name') === 'Status')!;
  expect(child(status, 'PickListItems')!.children.map((item) => item.text)).toEqual([
    'preferred',
    'admitted',
  ]);
  for (const item of fields.filter((f) => textOf(f, 'Type') !== 'Picklist'))
    expect(child(item, 'PickListItems')).toBeUndefined();

  // The entry structure: entry level holds the index level, which holds the term level; each field
  // placed there with Mandatory and Multiple.
  const entry = child(child(root, 'EntryStructure')!, 'ConceptGrp')!;
  const index = child(entry, 'LanguageGrp')!;
  const term = child(index, 'TermGrp')!;
  const placed = (level: Element) =>
    (child(level, 'Fields')?.children ?? []).map((field) => {
      expect(field.name).toBe('Field');
      expect(['true', 'false']).toContain(textOf(field, 'Mandatory'));
      expect(['true', 'false']).toContain(textOf(field, 'Multiple'));
      return textOf(field, 'Name');
    });
  expect(placed(entry)).toEqual(['Definition', 'Geprüft am', 'Freigegeben', 'Abbildung']);
  expect(placed(index)).toEqual(['Definition']);
  expect(placed(term)).toEqual(['Status', 'Seite', 'Abbildung']);

  // The import's reader takes the same definition back.
  const dir = mkdtempSync(join(tmpdir(), 'xdt-model-'));
  try {
    writeFileSync(join(dir, 'd.xdt'), xml);
    expect(await readMtfDefinition(join(dir, 'd.xdt'))).toEqual(DEFINITION);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
