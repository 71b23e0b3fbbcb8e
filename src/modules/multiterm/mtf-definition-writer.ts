/**
 * Writes a MultiTerm termbase definition (.xdt) for a MultiTerm XML export (docs/exchange.md), in the
 * shape mtf-definition.ts reads: the indexes with their locales, each descriptive field with its type
 * (and picklist values) and the entry structure placing it at entry, index or term level. MultiTerm
 * creates a termbase from it before importing the XML; Polyterm's import creates the fields from it.
 *
 * The collector learns the fields as the export writes them (their names and levels are the writer's),
 * seeded with the dictionary's fields so that fields without a value are defined too.
 */
import { exportedValue } from '../tbx/field-names.js';
import { escapeXmlText } from '../tbx/tbx-writer.js';
import type { MtfDefinition, MtfDefinitionField, MtfFieldType, MtfLevel } from './mtf-definition.js';

/** A field as the dictionary defines it, under the name the export writes. */
export interface KnownField {
  name: string;
  type: MtfFieldType;
  picklist: string[];
  /** Its level in the dictionary, used when the export wrote no value of it. */
  level: MtfLevel;
}

/** Values a picklist may gain from the export beyond the dictionary's (free text in a picklist field). */
const MAX_PICKLIST = 5000;

export class MtfDefinitionCollector {
  private readonly fields = new Map<
    string,
    { known: KnownField; seen: Set<MtfLevel>; values: Set<string> }
  >();
  private readonly languages = new Map<string, { name: string; locale: string; seeded?: boolean }>();

  constructor(
    private readonly name: string,
    known: readonly KnownField[],
    languages: readonly { name: string; locale: string }[],
  ) {
    for (const field of known) this.entry(field.name, field);
    for (const language of languages) {
      this.languages.set(language.locale.toLowerCase(), { ...language, seeded: true });
    }
  }

  private entry(name: string, known?: KnownField) {
    const key = name.toLowerCase();
    let entry = this.fields.get(key);
    if (!entry) {
      entry = {
        known: known ?? { name, type: 'TEXT', picklist: [], level: 'CONCEPT' },
        seen: new Set(),
        values: new Set(known?.picklist ?? []),
      };
      this.fields.set(key, entry);
    }
    return entry;
  }

  /** A value the export wrote: the field is used at that level (and a picklist holds the value). */
  field(name: string, level: MtfLevel, value: string, type?: MtfFieldType): void {
    const entry = this.entry(name, type ? { name, type, picklist: [], level } : undefined);
    entry.seen.add(level);
    if (entry.known.type === 'PICKLIST' && entry.values.size < MAX_PICKLIST) entry.values.add(value);
  }

  /** An index the export wrote (its `lang`, upper case, and English name). */
  language(locale: string, name: string): void {
    const known = this.languages.get(locale.toLowerCase());
    if (!known || known.seeded) this.languages.set(locale.toLowerCase(), { name, locale });
  }

  definition(): MtfDefinition {
    const fields: MtfDefinitionField[] = [...this.fields.values()].map(({ known, seen, values }) => ({
      name: known.name,
      type: known.type,
      picklist: known.type === 'PICKLIST' ? [...values] : [],
      levels: seen.size ? [...seen] : [known.level],
    }));
    // A dictionary language whose terms were written with a region (EN-GB) is that index, not another.
    const written = [...this.languages.values()].filter((l) => !l.seeded).map((l) => l.locale.toLowerCase());
    const languages = [...this.languages.values()]
      .filter((l) => !l.seeded || !written.some((locale) => locale.startsWith(`${l.locale.toLowerCase()}-`)))
      .map(({ name, locale }) => ({ name, locale }));
    return { name: this.name, languages, fields };
  }
}

const TYPE_NAMES: Record<MtfFieldType, string> = {
  TEXT: 'Text',
  PICKLIST: 'Picklist',
  NUMBER: 'Number',
  DATE: 'Date',
  BOOLEAN: 'Boolean',
  MULTIMEDIA: 'Multimedia',
};

/** The definition as XML (UTF-8). */
export function writeMtfDefinition(definition: MtfDefinition): string {
  const text = escapeXmlText;
  const fieldsAt = (level: MtfLevel, indent: string) => {
    const placed = definition.fields.filter((field) => field.levels.includes(level));
    if (!placed.length) return '';
    const items = placed.map(
      (field) =>
        `${indent}  <Field><Name>${text(field.name)}</Name><Mandatory>false</Mandatory><Multiple>true</Multiple></Field>\n`,
    );
    return `${indent}<Fields>\n${items.join('')}${indent}</Fields>\n`;
  };
  const languages = definition.languages
    .map((l) => `      <Item><Name>${text(l.name)}</Name><Locale>${text(l.locale)}</Locale></Item>\n`)
    .join('');
  const fields = definition.fields
    .map((field) => {
      const picklist = field.picklist.length
        ? `<PickListItems>${field.picklist.map((value) => `<Item>${text(value)}</Item>`).join('')}</PickListItems>`
        : '';
      return `      <Item><Name>${text(field.name)}</Name><Type>${TYPE_NAMES[field.type]}</Type>${picklist}</Item>\n`;
    })
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<TermbaseDefinition>\n' +
    `  <Name>${text(definition.name ?? '')}</Name>\n` +
    `  <Languages>\n    <ItemsList>\n${languages}    </ItemsList>\n  </Languages>\n` +
    `  <Fields>\n    <ItemsList>\n${fields}    </ItemsList>\n  </Fields>\n` +
    '  <EntryStructure>\n    <ConceptGrp>\n' +
    fieldsAt('CONCEPT', '      ') +
    '      <LanguageGrp>\n' +
    fieldsAt('LANGUAGE', '        ') +
    '        <TermGrp>\n' +
    fieldsAt('TERM', '          ') +
    '        </TermGrp>\n      </LanguageGrp>\n    </ConceptGrp>\n  </EntryStructure>\n</TermbaseDefinition>\n'
  );
}

const MTF_TYPES: Partial<Record<string, MtfFieldType>> = {
  PICKLIST: 'PICKLIST',
  MULTISELECT: 'PICKLIST',
  NUMBER: 'NUMBER',
  INCREMENTAL: 'NUMBER',
  DATE: 'DATE',
  ATTACHMENT: 'MULTIMEDIA',
};

/**
 * The exported fields of a dictionary as the MultiTerm export names them (`name` of a category, e.g.
 * Definition, Status), with their types and picklists written as the export writes values.
 */
export function knownFields(
  exported: readonly {
    oid: string;
    level: 'CONCEPT' | 'TERM';
    category: string;
    tbxNames: Map<string, string>;
  }[],
  fields: readonly { oid?: string | null; fieldType: string; id: number }[],
  items: readonly { field: { id: number }; name?: string | null; tbxName?: string | null }[],
): KnownField[] {
  return exported.flatMap((field) => {
    const model = fields.find((f) => f.oid === field.oid);
    const type = MTF_TYPES[model?.fieldType ?? ''] ?? 'TEXT';
    if (!model) return [];
    const picklist =
      type === 'PICKLIST'
        ? items
            .filter((item) => item.field.id === model.id && item.name)
            .map((item) => exportedValue(field.category, item.tbxName ?? item.name!).value)
        : [];
    return [{ name: exportedValue(field.category, '').name, type, picklist, level: field.level }];
  });
}
