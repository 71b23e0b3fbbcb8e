/**
 * Which Polyterm field a MultiTerm field's values go to (docs/exchange.md, MultiTerm XML): the preview
 * proposes one from the field names (tbx/field-names.ts), the user changes it, the import follows it.
 * A field the mapping does not name is imported by its name, as without a mapping.
 */
import { z } from 'zod';
import type { FieldLevel } from '../field/field.entity.js';
import { categoryOfName } from '../tbx/field-names.js';
import type { ImportStructure } from '../tbx/tbx-import-structure.js';
import type { MtfDefinition } from './mtf-definition.js';

export const MtfFieldMappingSchema = z
  .array(
    z.object({
      name: z.string().trim().min(1).max(255).describe("the MultiTerm field's name (descrip type)"),
      field: z
        .string()
        .trim()
        .min(1)
        .max(255)
        .nullable()
        .describe(
          "a TBX data category (definition, note, subjectField…) or a dictionary field's name; null: not imported",
        ),
    }),
  )
  .max(1000);
export type MtfFieldMapping = z.infer<typeof MtfFieldMappingSchema>;

/** Field name (lower case) -> target; undefined when no mapping was sent. */
export type MtfFieldTargets = ReadonlyMap<string, string | null>;

export const fieldTargets = (mapping: MtfFieldMapping | undefined): MtfFieldTargets | undefined =>
  mapping && new Map(mapping.map((entry) => [entry.name.trim().toLowerCase(), entry.field]));

/** Where a field's values go: the mapping's choice, else the category its name stands for. */
export function targetOf(name: string, targets: MtfFieldTargets | undefined): string | null {
  const key = name.trim().toLowerCase();
  return targets?.has(key) ? targets.get(key)! : categoryOfName(name);
}

/** Categories that become no field: domains, relations and the entry and term ids (oids). */
const NOT_FIELDS = new Set(['subjectfield', 'crossreference', 'originalid']);

/**
 * Creates what a termbase definition declares before the entries come: its languages and, for each
 * field placed at a level, the field it maps to (a picklist with its values when its target is a field of
 * its own name). Fields the definition places nowhere are made when their values come, as without one.
 */
export function applyDefinition(
  structure: ImportStructure,
  definition: MtfDefinition,
  targets: MtfFieldTargets | undefined,
): void {
  for (const language of definition.languages) structure.language(language.locale, 0);
  for (const field of definition.fields) {
    const target = targetOf(field.name, targets);
    if (target === null || NOT_FIELDS.has(target.toLowerCase())) continue;
    // Index-level values are the concept's language fields, which are concept fields.
    const levels = new Set(field.levels.map((level): FieldLevel => (level === 'TERM' ? 'TERM' : 'CONCEPT')));
    const picklist = field.type === 'PICKLIST' ? field.picklist : undefined;
    for (const level of levels) {
      // A multimedia field holds files: an ATTACHMENT field of its name (mtf-media.ts binds the values).
      if (field.type === 'MULTIMEDIA') structure.attachmentField(target, level);
      else structure.field(target, level, 'descrip', picklist);
    }
  }
}
