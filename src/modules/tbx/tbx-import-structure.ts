/**
 * The dictionary structure a TBX import writes into: fields with their picklist items, languages with
 * their variants, and domains, loaded once and added to as the file needs them.
 */
import { newOid } from '../../shared/oid.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { Domain } from '../domain/domain.entity.js';
import { Field, type FieldLevel, PicklistItem } from '../field/field.entity.js';
import { fieldRules, fieldsOf } from '../field/field.service.js';
import type { FieldRules } from '../field/field-validation.js';
import {
  isoLanguage,
  isoRegionName,
  isoScriptName,
  isRealCode,
  isRightToLeft,
} from '../language/iso-codes.js';
import { Language, LanguageVariant } from '../language/language.entity.js';
import { languagesOf } from '../language/language.service.js';
import { type ImportContext, NO_TENANT } from './tbx-import-context.js';
import { tbxLanguage } from './tbx-languages.js';
import { fieldBlueprint } from './tbx-mapping.js';

/** Elements a GENERIC field's values are written back in by the full export (tbx-writer.ts). */
const KEPT_ELEMENTS: ReadonlySet<string> = new Set(['descrip', 'admin', 'termNote']);
/** A field values go to, with what validating them needs. */
export interface ImportField {
  /** The field row; a field this import made is known by its entity until the batch flushes it. */
  id: number | null;
  entity: Field | null;
  oid: string;
  level: FieldLevel;
  rules: FieldRules;
  /** Picklists of TBX categories (and those the import made) take the file's values as new items. */
  growable: boolean;
  nextItemSortIndex: number;
}

/** A language of the dictionary with its variants; one this import made is known by its entity until flushed. */
interface KnownLanguage {
  id: number | null;
  entity: Language | null;
  code: string;
  variants: { type: number; code: string }[];
}

/** Where a language tag's terms go: the dictionary's spelling of the language and its variants. */
export interface ImportLanguage {
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
}

/** The structure by the names a file gives it; rows made on the way are written by flush(), batch by batch. */
export class ImportStructure {
  /** Set once the import adds a field, picklist item, language, variant or domain. */
  changed = false;
  private readonly fieldsByCategory = new Map<string, ImportField>();
  private readonly fieldsByName = new Map<string, ImportField>();
  private readonly nextFieldSortIndex = { CONCEPT: 0, TERM: 0 };
  private readonly languagesByTag = new Map<string, ImportLanguage | null>();
  /** Each picklist's values as a set, by the list (field.rules.picklistValues) they were made from. */
  private readonly picklistSets = new WeakMap<readonly string[], Set<string>>();
  private readonly languagesByCode = new Map<string, KnownLanguage>();
  private nextLanguageSortIndex = 0;
  private readonly domainsByName = new Map<string, number>();
  private nextDomainSortIndex = 0;
  /** Rows made while planning, written at the start of the next batch. */
  private readonly pendingFields: ImportField[] = [];
  private readonly pendingLanguages: KnownLanguage[] = [];
  /** Domains made while planning: negative placeholder -> entity, then -> id once written. */
  private readonly pendingDomains = new Map<number, Domain>();
  private readonly domainIdOfPlaceholder = new Map<number, number>();

  private constructor(
    private readonly ctx: ImportContext,
    private readonly nordic: boolean,
  ) {}

  /** The dictionary's structure as it is when the import starts. */
  static async load(ctx: ImportContext, nordic: boolean): Promise<ImportStructure> {
    const structure = new ImportStructure(ctx, nordic);
    await structure.loadRows();
    return structure;
  }

  private async loadRows() {
    const { fields, items } = await fieldsOf(this.ctx.em, [this.ctx.dictionaryId]);
    for (const field of fields) {
      const own = items.filter((item) => item.field.id === field.id);
      const choice = field.fieldType === 'PICKLIST' || field.fieldType === 'MULTISELECT';
      this.remember(field, own, choice && field.dataCategory !== 'GENERIC');
      this.nextFieldSortIndex[field.level] = Math.max(
        this.nextFieldSortIndex[field.level],
        field.sortIndex + 1,
      );
    }
    const { languages, variants } = await languagesOf(this.ctx.em, [this.ctx.dictionaryId]);
    for (const language of languages) {
      this.languagesByCode.set(language.code.toLowerCase(), {
        id: language.id,
        entity: null,
        code: language.code,
        variants: variants
          .filter((variant) => variant.language.id === language.id)
          .map((variant) => ({ type: variant.type, code: variant.code })),
      });
      this.nextLanguageSortIndex = Math.max(this.nextLanguageSortIndex, language.sortIndex + 1);
    }
    const domains = await this.ctx.em.find(
      Domain,
      { dictionary: this.ctx.dictionaryId },
      { filters: NO_TENANT },
    );
    for (const domain of domains) {
      this.domainsByName.set(domain.name.trim().toLowerCase(), domain.id);
      this.nextDomainSortIndex = Math.max(this.nextDomainSortIndex, domain.sortIndex + 1);
    }
  }

  /** Names of the fields planning made, by oid (the staging review names them before they exist). */
  madeFieldNames(): Map<string, string> {
    return new Map(this.pendingFields.flatMap((f) => (f.entity ? [[f.oid, f.entity.name] as const] : [])));
  }

  /** The INCREMENTAL fields, whose values are unique in the dictionary. */
  incrementalFields(): ImportField[] {
    return [...new Set(this.fieldsByName.values())].filter((f) => f.rules.fieldType === 'INCREMENTAL');
  }

  /**
   * The field of a category at a level, made when the dictionary has none. A GENERIC field made for a
   * category TBX does not define remembers the element its value came in (descrip, admin, termNote).
   */
  field(category: string, level: FieldLevel, element = '', picklist?: readonly string[]): ImportField {
    const blueprint = fieldBlueprint(category, level);
    // A field of its own name that a termbase definition gives a picklist (MultiTerm) is a picklist.
    if (blueprint.dataCategory === 'GENERIC' && picklist?.length) {
      blueprint.fieldType = 'PICKLIST';
      blueprint.picklistItems = [...new Set(picklist)]
        .filter((value) => value.length <= 255)
        .map((value, sortIndex) => ({ name: value, tbxName: value, sortIndex }));
    }
    const known =
      (blueprint.dataCategory !== 'GENERIC'
        ? this.fieldsByCategory.get(`${level}:${blueprint.dataCategory}`)
        : undefined) ?? this.fieldsByName.get(`${level}:${blueprint.name.toLowerCase()}`);
    if (known) return known;
    const field = this.ctx.em.create(Field, {
      client: this.ctx.em.getReference(Client, this.ctx.clientId),
      dictionary: this.ctx.em.getReference(Dictionary, this.ctx.dictionaryId),
      oid: newOid(),
      level,
      name: blueprint.name.slice(0, 255),
      dataCategory: blueprint.dataCategory,
      fieldType: blueprint.fieldType,
      tbxElement: blueprint.dataCategory === 'GENERIC' && KEPT_ELEMENTS.has(element) ? element : null,
      sortIndex: this.nextFieldSortIndex[level]++,
      createdById: this.ctx.scope.actor.userId,
      changedById: this.ctx.scope.actor.userId,
    });
    const items = blueprint.picklistItems.map((item) =>
      this.ctx.em.create(PicklistItem, {
        field,
        oid: newOid(),
        name: item.name,
        tbxName: item.tbxName,
        sortIndex: item.sortIndex,
      }),
    );
    this.changed = true;
    const choice = blueprint.fieldType === 'PICKLIST' || blueprint.fieldType === 'MULTISELECT';
    // Values name the field by oid, known now; its id comes when the next batch writes it.
    const entry = this.remember(field, items, choice, true);
    this.pendingFields.push(entry);
    return entry;
  }

  /**
   * The ATTACHMENT field bundled files go to: the one of the level named as the category, else the
   * level's only ATTACHMENT field, else a new one named after the category (docs/attachments.md).
   */
  attachmentField(category: string, level: FieldLevel): ImportField {
    const fields = [...new Set(this.fieldsByName.values())].filter(
      (f) => f.level === level && f.rules.fieldType === 'ATTACHMENT',
    );
    const named = fields.find((f) => f.rules.name.toLowerCase() === category.toLowerCase());
    if (named) return named;
    if (fields.length === 1) return fields[0]!;
    const taken = this.fieldsByName.has(`${level}:${category.toLowerCase()}`);
    const field = this.ctx.em.create(Field, {
      client: this.ctx.em.getReference(Client, this.ctx.clientId),
      dictionary: this.ctx.em.getReference(Dictionary, this.ctx.dictionaryId),
      oid: newOid(),
      level,
      name: taken ? `${category} (files)` : category,
      dataCategory: 'GENERIC',
      fieldType: 'ATTACHMENT',
      sortIndex: this.nextFieldSortIndex[level]++,
      createdById: this.ctx.scope.actor.userId,
      changedById: this.ctx.scope.actor.userId,
    });
    this.changed = true;
    const entry = this.remember(field, [], false, true);
    this.pendingFields.push(entry);
    return entry;
  }

  /** A growable picklist takes the values it lacks as new items. */
  addPicklistValues(field: ImportField, values: readonly string[]) {
    // Called for every value of every entry: the picklist's set is kept per list, not rebuilt per call
    // (a picklist of thousands of items made this a large share of the import's own CPU time).
    let known = this.picklistSets.get(field.rules.picklistValues);
    if (!known) {
      known = new Set(field.rules.picklistValues);
      this.picklistSets.set(field.rules.picklistValues, known);
    }
    const missing = [...new Set(values)].filter((value) => !known.has(value) && value.length <= 255);
    if (missing.length === 0) return;
    for (const value of missing) {
      this.ctx.em.create(PicklistItem, {
        field: field.entity ?? this.ctx.em.getReference(Field, field.id!),
        oid: newOid(),
        name: null,
        tbxName: value,
        sortIndex: field.nextItemSortIndex++,
      });
    }
    field.rules = { ...field.rules, picklistValues: [...field.rules.picklistValues, ...missing] };
    this.picklistSets.set(field.rules.picklistValues, new Set([...known, ...missing]));
    this.changed = true;
  }

  /** The language (and variant) a tag names, added to the dictionary when missing; null: skipped. */
  language(tag: string, line: number): ImportLanguage | null {
    const cached = this.languagesByTag.get(tag);
    if (cached !== undefined) return cached;
    const resolved = this.resolveLanguage(tag, line);
    this.languagesByTag.set(tag, resolved);
    return resolved;
  }

  private resolveLanguage(tag: string, line: number): ImportLanguage | null {
    const parsed = tbxLanguage(tag, { nordic: this.nordic });
    if (!parsed) {
      // An unknown tag becomes a custom language of that code, so its terms are kept.
      const code = tag.trim();
      if (!code || code.length > 64 || isRealCode(code)) {
        this.ctx.error(line, `Language "${tag}" is not known; its terms are skipped`);
        return null;
      }
      const language = this.languagesByCode.get(code.toLowerCase()) ?? this.addLanguage(code, undefined);
      return { languageCode: language.code, regionCode: null, scriptCode: null };
    }
    const language =
      this.languagesByCode.get(parsed.languageCode.toLowerCase()) ??
      this.addLanguage(parsed.languageCode, isoLanguage(parsed.languageCode));
    return {
      languageCode: language.code,
      regionCode: parsed.regionCode ? this.variant(language, 0, parsed.regionCode) : null,
      scriptCode: parsed.scriptCode ? this.variant(language, 1, parsed.scriptCode) : null,
    };
  }

  private addLanguage(code: string, isoEntry: ReturnType<typeof isoLanguage>): KnownLanguage {
    const entity = this.ctx.em.create(Language, {
      client: this.ctx.em.getReference(Client, this.ctx.clientId),
      dictionary: this.ctx.em.getReference(Dictionary, this.ctx.dictionaryId),
      name: isoEntry?.name ?? code,
      code: isoEntry?.code3 ?? code,
      code2: isoEntry?.code2 ?? null,
      code3: isoEntry?.code3 ?? null,
      iso: isoEntry !== undefined,
      custom: isoEntry === undefined,
      rtl: isoEntry ? isRightToLeft(isoEntry.code3) : false,
      sortIndex: this.nextLanguageSortIndex++,
      createdById: this.ctx.scope.actor.userId,
      changedById: this.ctx.scope.actor.userId,
    });
    const language: KnownLanguage = { id: null, entity, code: entity.code, variants: [] };
    this.languagesByCode.set(language.code.toLowerCase(), language);
    this.pendingLanguages.push(language);
    this.changed = true;
    return language;
  }

  /** The variant's code as the dictionary spells it; added to the language when missing. */
  private variant(language: KnownLanguage, type: 0 | 1, code: string): string {
    const found = language.variants.find(
      (v) => v.type === type && v.code.toLowerCase() === code.toLowerCase(),
    );
    if (found) return found.code;
    // Regions upper case (US), scripts lower case (hant), as the dictionary API spells them.
    const spelled = type === 0 ? code.toUpperCase() : code.toLowerCase();
    this.ctx.em.create(LanguageVariant, {
      language: language.entity ?? this.ctx.em.getReference(Language, language.id!),
      type,
      code: spelled,
      name: (type === 0 ? isoRegionName(code) : isoScriptName(code)) ?? code,
      predefined: true,
      sortIndex: language.variants.length,
      createdById: this.ctx.scope.actor.userId,
      changedById: this.ctx.scope.actor.userId,
    });
    language.variants.push({ type, code: spelled });
    this.changed = true;
    return spelled;
  }

  /** The id of the domain of that name, made when missing (a negative placeholder until written). */
  domain(name: string): number {
    const key = name.toLowerCase();
    const known = this.domainsByName.get(key);
    if (known !== undefined) return known;
    const domain = this.ctx.em.create(Domain, {
      client: this.ctx.em.getReference(Client, this.ctx.clientId),
      dictionary: this.ctx.em.getReference(Dictionary, this.ctx.dictionaryId),
      oid: newOid(),
      name,
      parentId: null,
      sortIndex: this.nextDomainSortIndex++,
      createdById: this.ctx.scope.actor.userId,
      changedById: this.ctx.scope.actor.userId,
    });
    this.changed = true;
    // The id comes when the next batch writes the domain: until then a negative placeholder.
    const placeholder = -(this.pendingDomains.size + this.domainIdOfPlaceholder.size + 1);
    this.domainsByName.set(key, placeholder);
    this.pendingDomains.set(placeholder, domain);
    return placeholder;
  }

  /** Writes the structure planned so far; the new rows' ids replace entities and placeholders. */
  async flush(batch: readonly { domainIds: Set<number> }[]) {
    await this.ctx.em.flush();
    for (const field of this.pendingFields) {
      field.id = field.entity!.id;
      field.entity = null;
    }
    this.pendingFields.length = 0;
    for (const language of this.pendingLanguages) {
      language.id = language.entity!.id;
      language.entity = null;
    }
    this.pendingLanguages.length = 0;
    for (const [placeholder, domain] of this.pendingDomains) {
      this.domainIdOfPlaceholder.set(placeholder, domain.id);
      this.domainsByName.set(domain.name.toLowerCase(), domain.id);
    }
    this.pendingDomains.clear();
    for (const concept of batch) {
      concept.domainIds = new Set(
        [...concept.domainIds].map((id) => this.domainIdOfPlaceholder.get(id) ?? id),
      );
    }
  }

  private remember(
    field: Field,
    items: readonly PicklistItem[],
    growable: boolean,
    pending = false,
  ): ImportField {
    const entry: ImportField = {
      id: pending ? null : field.id,
      entity: pending ? field : null,
      oid: field.oid ?? String(field.id),
      level: field.level,
      growable,
      nextItemSortIndex: items.reduce((max, item) => Math.max(max, item.sortIndex + 1), 0),
      rules: fieldRules(field, items),
    };
    if (field.dataCategory !== 'GENERIC')
      this.fieldsByCategory.set(`${field.level}:${field.dataCategory}`, entry);
    const nameKey = `${field.level}:${field.name.toLowerCase()}`;
    if (!this.fieldsByName.has(nameKey)) this.fieldsByName.set(nameKey, entry);
    return entry;
  }
}
