import { Migration } from '@mikro-orm/migrations';

/**
 * Provenance (`provenance`, concepts and terms): who created and last changed them by an imported
 * file's transactions, so exports write the original people back.
 *
 * Links of TBX values as structured data (docs/tbx.md, Links): `field_parts` beside `field_map` on
 * concepts, terms and language fields holds, per field oid, how a stored value was made
 * (`[{stored, parts: [{value, target?}]}]`: the separate values a file gave and their link targets).
 *
 * Imports used to keep a link in the value's text (`label <target>`), and exports read any value ending
 * in ` <…>` as a link, ordinary text too ("Press <Enter>"). This moves the stored links out of the text.
 * A value counts as a stored link when it has that form and either its field is one of the xref
 * categories (externalCrossReference, xGraphic, xSource) or its target looks like a link (a URI scheme,
 * or `#id`); a bare `scheme:rest` value of an xref category is a link to itself. Values joined with a
 * blank line keep their parts apart. Everything else stays text, as it now always reads.
 */
const XREF_FIELDS = ['externalCrossReference', 'xGraphic', 'xSource'];
const LABELLED = /^(?:(.*) )?<([^<>\r\n]+)>$/s;
const JOINED = /\r?\n\r?\n/;
const LINK_LIKE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|#)\S/;

interface Part {
  value: string;
  target?: string;
}

/** A stored value's parts when it holds links, else null (the value stays as it is). */
export function partsOfStored(stored: string, xrefField: boolean): { text: string; parts: Part[] } | null {
  const pieces = stored.split(JOINED);
  const parts = pieces.map((piece): Part => {
    const labelled = LABELLED.exec(piece);
    if (labelled && !labelled[1]?.includes('\n') && (xrefField || LINK_LIKE.test(labelled[2]!))) {
      const target = labelled[2]!;
      return { value: labelled[1] ?? target, target };
    }
    if (xrefField && /^\S+:\S+$/.test(piece)) return { value: piece, target: piece };
    return { value: piece };
  });
  if (!parts.some((part) => part.target !== undefined)) return null;
  return { text: parts.map((part) => part.value).join('\r\n\r\n'), parts };
}

type Row = { id: number; field_map: Record<string, string[]> };

/** Runs a statement of the migration's transaction. */
type Execute = (sql: string, params?: unknown[]) => Promise<unknown[]>;

/** Moves the links stored in values' text (see above) into `field_parts`; the columns exist. */
export async function moveStoredLinks(execute: Execute): Promise<void> {
  const xrefOids = new Set(
    (
      (await execute(`select oid from fields where name = any(?::text[]) and data_category = 'GENERIC'`, [
        `{${XREF_FIELDS.join(',')}}`,
      ])) as { oid: string }[]
    ).map((row) => row.oid),
  );
  for (const table of ['concepts', 'terms', 'concept_language_fields']) {
    // Only rows with a value of the stored link form: a text search on the jsonb, never all rows in JS.
    const rows = (await execute(
      `select id, field_map from "${table}" where field_map::text ~ '>"'`,
    )) as Row[];
    for (const row of rows) {
      const fieldMap: Record<string, string[]> = {};
      const fieldParts: Record<string, { stored: string; parts: Part[] }[]> = {};
      let changed = false;
      for (const [oid, values] of Object.entries(row.field_map)) {
        fieldMap[oid] = values.map((value) => {
          const made = partsOfStored(value, xrefOids.has(oid));
          if (!made) return value;
          changed = true;
          fieldParts[oid] = [...(fieldParts[oid] ?? []), { stored: made.text, parts: made.parts }];
          return made.text;
        });
      }
      if (!changed) continue;
      await execute(`update "${table}" set field_map = ?::jsonb, field_parts = ?::jsonb where id = ?`, [
        JSON.stringify(fieldMap),
        JSON.stringify(fieldParts),
        row.id,
      ]);
    }
  }
}

export class Migration20261218090000 extends Migration {
  override async up(): Promise<void> {
    for (const table of ['concepts', 'terms', 'concept_language_fields']) {
      await this.execute(`alter table "${table}" add column "field_parts" jsonb not null default '{}';`);
    }
    // Who created and changed a concept or term by an imported file (tbx-mapping.ts, Provenance).
    for (const table of ['concepts', 'terms']) {
      await this.execute(`alter table "${table}" add column "provenance" jsonb null;`);
    }
    await moveStoredLinks((sql, params) => this.execute(sql, params));
  }

  override async down(): Promise<void> {
    for (const table of ['concepts', 'terms', 'concept_language_fields']) {
      this.addSql(`alter table "${table}" drop column if exists "field_parts";`);
    }
    for (const table of ['concepts', 'terms']) {
      this.addSql(`alter table "${table}" drop column if exists "provenance";`);
    }
  }
}
