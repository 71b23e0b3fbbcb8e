/**
 * The print page of a display concept: one standalone HTML document (inline CSS, no scripts, nothing
 * fetched). Every value is escaped; fields the caller's view hides are left out.
 */
import type { StructureLanguage } from '../concept/concept-structure.js';
import type { DisplayConcept, DisplayField, DisplayTerm } from './display.schema.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value made safe for HTML (the five characters that matter). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** An escaped value whose line breaks (stored CR LF) show as line breaks. */
const multiline = (text: string): string => escapeHtml(text).replace(/\r\n|\r|\n/g, '<br>');

const STYLE = `
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f; margin: 2em; }
  h1 { font-size: 1.6em; margin: 0 0 .2em; }
  h2 { font-size: 1.15em; margin: 1.4em 0 .4em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
  h3 { font-size: 1em; margin: .8em 0 .2em; }
  .concept-id { color: #666; margin: 0 0 1em; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1em; margin: .3em 0; }
  dt { color: #555; }
  dd { margin: 0; }
  .variant { color: #666; font-weight: normal; }
  .term { margin-left: 1em; break-inside: avoid; }
  .metadata { color: #666; font-size: .9em; margin-top: 2em; }
  @media print { body { margin: 0; } }
`;

function fieldList(fields: readonly DisplayField[], className?: string): string {
  const shown = fields.filter((field) => !field.hidden && field.value !== null && field.value !== '');
  if (shown.length === 0) return '';
  const rows = shown.map(
    (field) => `<dt>${escapeHtml(field.label)}</dt><dd>${multiline(field.value ?? '')}</dd>`,
  );
  return `<dl${className ? ` class="${className}"` : ''}>${rows.join('')}</dl>`;
}

function termBlock(term: DisplayTerm): string {
  const variant = [term.region, term.script].filter((code): code is string => Boolean(code)).join(', ');
  const heading =
    `<h3>${escapeHtml(term.termField.value ?? '')}` +
    (variant ? ` <span class="variant">(${escapeHtml(variant)})</span>` : '') +
    '</h3>';
  return `<div class="term">${heading}${fieldList(term.fields)}${fieldList(term.metadataFields, 'metadata')}</div>`;
}

function languageBlock(code: string, terms: readonly DisplayTerm[], language?: StructureLanguage): string {
  // The terms carry their language: a BCP 47 tag where the language has a two-letter code.
  const tag = language?.language.code2 ?? (language?.language.iso ? code : null);
  const attributes = [
    'class="language"',
    tag ? `lang="${escapeHtml(tag)}"` : null,
    language?.language.rtl ? 'dir="rtl"' : null,
  ].filter(Boolean);
  const name = language ? `${language.language.name} (${code})` : code;
  return `<section ${attributes.join(' ')}><h2 lang="en" dir="ltr">${escapeHtml(name)}</h2>${terms.map(termBlock).join('')}</section>`;
}

/** The HTML document for a display concept (showing form) of the concept with serial `cid`. */
export function printPage(
  display: DisplayConcept,
  languages: readonly StructureLanguage[],
  cid: string,
): string {
  const byCode = new Map(languages.map((entry) => [entry.code, entry]));
  const firstTerm = display.termsPerLanguage.flat()[0]?.termField.value;
  const title = firstTerm ?? `Concept ${cid}`;
  const sections = display.languageCodes.map((code, index) =>
    languageBlock(code, display.termsPerLanguage[index] ?? [], byCode.get(code)),
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<article class="concept">',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="concept-id">Concept ${escapeHtml(cid)}</p>`,
    fieldList(display.classificationFields, 'classification'),
    fieldList(display.fields, 'fields'),
    ...sections,
    fieldList(display.metadataFields, 'metadata'),
    '</article>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
