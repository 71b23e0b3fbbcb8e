/**
 * MultiTerm multimedia fields (docs/exchange.md): a termbase's images travel as the files of its package
 * (the zip of the XML export), and each value of a multimedia field names its file by a link (an `xref`
 * typed Multimedia with a Ulink, or MTF's Glink). The import stores the package's files as attachments
 * (attachment-import.ts, as a TBX bundle's) and gives each such value the attachment of the file it names,
 * so the field becomes an ATTACHMENT field; a value naming no file of the package is reported and left out.
 *
 * MultiTerm writes the link as the path it exported the file to: relative to the XML (`files/<key>/a.png`
 * from Polyterm, `media_Termbase/a.png`), or absolute on the exporting machine (`C:\Export\media\a.png`,
 * `file:///C:/…`). The file is found by its path in the zip, else by its name when only one file has it.
 */
import { createReadStream } from 'node:fs';
import type { BundleImport } from '../attachment/attachment-import.js';
import type { TbxEntry, TbxValue } from '../tbx/tbx-model.js';
import type { MtfDefinition } from './mtf-definition.js';
import type { MtfFieldTargets } from './mtf-field-mapping.js';
import { readMtf } from './mtf-reader.js';

/** The definition's multimedia fields, by name in lower case (the reader's `multimedia` option). */
export const multimediaFields = (definition: MtfDefinition | undefined) =>
  new Set(
    (definition?.fields ?? [])
      .filter((field) => field.type === 'MULTIMEDIA')
      .map((field) => field.name.toLowerCase()),
  );

/**
 * The package's files some value of the XML names (one more pass over the file, made only when the zip
 * holds files): the others (a read-me, a layout, a field the mapping leaves out) are not stored, so no
 * attachment of the dictionary is left without a value naming it.
 */
export async function referencedMedia(
  path: string,
  media: ReadonlyMap<string, string>,
  source: { definition?: MtfDefinition; targets?: MtfFieldTargets } | undefined,
): Promise<Map<string, string>> {
  const resolve = mediaResolver(media.keys());
  const used = new Set<string>();
  const visit = (values: readonly TbxValue[]) => {
    for (const value of values) {
      const name = value.media ? resolve(value.target ?? '') : undefined;
      if (name !== undefined) used.add(name);
    }
  };
  const reading = readMtf(createReadStream(path), {
    fields: source?.targets,
    multimedia: multimediaFields(source?.definition),
  });
  for await (const entry of reading) {
    visit(entry.values);
    for (const section of entry.languages) {
      visit(section.values);
      for (const term of section.terms) visit(term.values);
    }
  }
  return new Map([...media].filter(([name]) => used.has(name)));
}

/** Finds the zip name a link names; undefined when it names no file of the package. */
export function mediaResolver(names: Iterable<string>): (link: string) => string | undefined {
  const byPath = new Map<string, string>();
  const byName = new Map<string, string[]>();
  for (const name of names) {
    byPath.set(normalise(name), name);
    const base = normalise(name).split('/').at(-1)!;
    byName.set(base, [...(byName.get(base) ?? []), name]);
  }
  return (link) => {
    const path = normalise(link);
    const exact = byPath.get(path);
    if (exact) return exact;
    const candidates = byName.get(path.split('/').at(-1)!) ?? [];
    return candidates.length === 1 ? candidates[0] : undefined;
  };
}

/** A link as a comparable path: slashes, no scheme or drive, percent escapes decoded, lower case. */
function normalise(link: string): string {
  let path = link.trim().replaceAll('\\', '/');
  path = path.replace(/^file:\/*/i, '').replace(/^[a-z]:\//i, '');
  try {
    path = decodeURI(path);
  } catch {
    // A lone % stays as written.
  }
  return path
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '')
    .toLowerCase();
}

/**
 * Binds the entry's multimedia values to the attachments stored from the package (zip name -> key);
 * the others are reported and left out (a multimedia field holds files, not text).
 */
export function bindMediaValues(
  entry: TbxEntry,
  keys: ReadonlyMap<string, string>,
  resolve: (link: string) => string | undefined,
  ctx: Pick<BundleImport, 'error'>,
): void {
  const bind = (values: TbxValue[]) =>
    values.flatMap((value) => {
      if (!value.media) return [value];
      const name = resolve(value.target ?? '');
      const key = name === undefined ? undefined : keys.get(name);
      if (!key) {
        ctx.error(
          value.line ?? entry.line,
          `${value.category}: the file ${value.target} is not in the package (import the zip with its files); the value is skipped`,
        );
        return [];
      }
      return [{ ...value, attachmentKey: key }];
    });
  entry.values = bind(entry.values);
  for (const section of entry.languages) {
    section.values = bind(section.values);
    for (const term of section.terms) term.values = bind(term.values);
  }
}
