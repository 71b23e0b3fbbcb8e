import type { CSSProperties } from 'react';

/**
 * A TermListEntry's `style` (an HTML style attribute the workflow formatting fills) as React style
 * properties. Only a few presentational properties are taken, and values that could load anything
 * (url(), expression) are dropped: the server's text never reaches the page as markup.
 */
const ALLOWED: Record<string, keyof CSSProperties> = {
  color: 'color',
  'background-color': 'backgroundColor',
  background: 'backgroundColor',
  'font-weight': 'fontWeight',
  'font-style': 'fontStyle',
  'text-decoration': 'textDecoration',
  'border-color': 'borderColor',
  opacity: 'opacity',
};

export function entryStyle(style: string): CSSProperties {
  const result: Record<string, string> = {};
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    const property = ALLOWED[name];
    if (!property || !value || /url\(|expression|[<>"'\\]/i.test(value)) continue;
    result[property] = value;
  }
  return result as CSSProperties;
}
