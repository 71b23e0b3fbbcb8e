/**
 * Every string the interface shows comes from the message catalogues (docs/ui.md, "Interface languages"):
 * this reads every .tsx file under web/src with the TypeScript parser and fails on a user-visible string
 * literal with letters in it: JSX text, a literal in a JSX child expression (`{open ? 'Close' : …}`), and
 * the attributes people read or hear (aria-label, title, placeholder, alt, and the project's components'
 * label and owner props). Non-words shown as they are (the product's name, a CSS example) are allowed by
 * name below. No browser: a plain parse, well under a second.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const webSrc = resolve(import.meta.dirname, '../../web/src');

/** Attributes whose value is read by people or screen readers. */
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'title',
  'placeholder',
  'alt',
  'label',
  'owner',
]);

/** Literals that are no words to translate. Keep this short and say why for each. */
const ALLOWED = new Set([
  'Polyterm', // the product's name, the same in every language
  'color: #888', // a CSS example in the workflow editor's state style box
]);

const hasLetters = (text: string) => /\p{L}/u.test(text);

/** The literals an expression can render as text: through ?:, &&'s right side, ||, ?? and +. */
function renderedLiterals(expression: ts.Expression | undefined, found: string[]): void {
  if (!expression) return;
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    found.push(expression.text);
  } else if (ts.isTemplateExpression(expression)) {
    found.push(
      [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)].join('…'),
    );
    for (const span of expression.templateSpans) renderedLiterals(span.expression, found);
  } else if (ts.isParenthesizedExpression(expression)) {
    renderedLiterals(expression.expression, found);
  } else if (ts.isConditionalExpression(expression)) {
    renderedLiterals(expression.whenTrue, found);
    renderedLiterals(expression.whenFalse, found);
  } else if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken) renderedLiterals(expression.right, found);
    else if (
      operator === ts.SyntaxKind.BarBarToken ||
      operator === ts.SyntaxKind.QuestionQuestionToken ||
      operator === ts.SyntaxKind.PlusToken
    ) {
      renderedLiterals(expression.left, found);
      renderedLiterals(expression.right, found);
    }
  }
}

/** `line: text` for each user-visible literal of one TSX source. */
function literalStrings(source: string, fileName = 'file.tsx'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    const found: string[] = [];
    if (ts.isJsxText(node)) found.push(node.text.trim());
    else if (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)))
      renderedLiterals(node.expression, found);
    else if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(file))) {
      const value = node.initializer;
      if (value && ts.isStringLiteral(value)) found.push(value.text);
      else if (value && ts.isJsxExpression(value)) renderedLiterals(value.expression, found);
    }
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    for (const text of found) if (hasLetters(text) && !ALLOWED.has(text)) out.push(`${line}: ${text}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('user-visible strings in web/src', () => {
  it('finds literal text, attributes and literals in child expressions (so it can fail)', () => {
    const sample = `
      export const A = ({ open, n }: { open: boolean; n: number }) => (
        <section aria-label="Term details" title={open ? 'Open' : \`\${n} closed\`} className="card" id="x">
          Choose a term
          {open && 'Shown'}
          {n === 1 && <span>{t('key')}</span>}
          <input placeholder="Find…" type="search" />
          <img alt="" src="a.png" />
          {' '}·{t('other', { name: 'not shown' })}
          <p>Polyterm</p>
        </section>
      );`;
    expect(literalStrings(sample)).toEqual([
      '3: Term details',
      '3: Open',
      '3: … closed',
      '4: Choose a term',
      '5: Shown',
      '7: Find…',
    ]);
  });

  const files = readdirSync(webSrc, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.tsx'))
    .sort();

  it('has screens to check', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it('shows no string literal that the catalogues should hold', () => {
    const findings = files.flatMap((file) =>
      literalStrings(readFileSync(join(webSrc, file), 'utf8'), file).map((finding) => `${file}:${finding}`),
    );
    expect(findings).toEqual([]);
  });
});
