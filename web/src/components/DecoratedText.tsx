import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { trpc } from '../api';
import { onLinkClick } from '../routes';

export type Decoration = Awaited<ReturnType<typeof trpc.termDecoration.decorate.mutate>>;
export type TermMatch = Decoration['segments'][number]['matches'][number];
type TermRef = TermMatch['preferred'][number];

type Piece =
  | { start: number; text: string; match?: undefined }
  | { start: number; text: string; match: TermMatch; index: number };

/**
 * The text cut at its matches (UTF-16 offsets, as the server answers them and as String.slice counts).
 * Matches that overlap one already taken are left out, so every character is shown once.
 */
export function piecesOf(text: string, matches: TermMatch[]): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  [...matches]
    .sort((a, b) => a.start - b.start || b.end - a.end)
    .forEach((match, index) => {
      if (match.start < at || match.end > text.length) return;
      if (match.start > at) pieces.push({ start: at, text: text.slice(at, match.start) });
      pieces.push({ start: match.start, text: text.slice(match.start, match.end), match, index });
      at = match.end;
    });
  if (at < text.length) pieces.push({ start: at, text: text.slice(at) });
  return pieces;
}

const names = (terms: TermRef[]) => terms.map((term) => term.name).join(', ');

/**
 * The checked text with each matched term a button (keyboard reachable) styled and labelled by its
 * status; focusing or clicking one shows its details. Everything is React text: a term that looks like
 * HTML stays text.
 */
export function DecoratedText(props: {
  text: string;
  matches: TermMatch[];
  /** Language names by code, for the translations. */
  languageNames: Map<string, string>;
}) {
  const { text, matches, languageNames } = props;
  const { t } = useTranslation('check');
  const pieces = piecesOf(text, matches);
  const [chosen, setChosen] = useState<number | null>(null);
  const selected = pieces.find((piece) => piece.match && piece.index === chosen);
  return (
    <div className="decoration">
      <h2 className="visually-hidden">{t('decorated.title')}</h2>
      <p className="decorated-text">
        {pieces.map((piece) =>
          piece.match ? (
            <button
              key={`m${piece.index}`}
              type="button"
              className={`term-mark term-${piece.match.status}`}
              aria-pressed={chosen === piece.index}
              aria-controls="term-details"
              onClick={() => setChosen(piece.index)}
              onFocus={() => setChosen(piece.index)}
            >
              {piece.text}
              <span className="term-status">{t(`statusName.${piece.match.status}`)}</span>
            </button>
          ) : (
            <span key={`t${piece.start}`}>{piece.text}</span>
          ),
        )}
      </p>
      <section
        id="term-details"
        className="card term-details"
        aria-live="polite"
        aria-label={t('decorated.details')}
      >
        {selected?.match ? (
          <MatchDetails match={selected.match} languageNames={languageNames} />
        ) : (
          <p className="hint">{t('decorated.choose')}</p>
        )}
      </section>
    </div>
  );
}

function MatchDetails({ match, languageNames }: { match: TermMatch; languageNames: Map<string, string> }) {
  const { t } = useTranslation('check');
  const translations = Object.entries(match.translations);
  return (
    <>
      <h2>
        <a href={`/concepts/${match.conceptId}`} onClick={onLinkClick}>
          {match.term}
        </a>
      </h2>
      <dl className="fields">
        <dt>{t('decorated.status')}</dt>
        <dd>
          <span className={`status-badge term-${match.status}`}>{t(`statusName.${match.status}`)}</span>
        </dd>
        <dt>{t('decorated.foundAs')}</dt>
        <dd>
          {t('decorated.found', {
            text: match.text,
            kind: t(`decorated.kind.${match.kind}`),
            score: match.score,
          })}
        </dd>
        {match.status !== 'preferred' && (
          <>
            <dt>{t('decorated.useInstead')}</dt>
            <dd className="replacement">
              {match.preferred.length > 0 ? names(match.preferred) : t('decorated.noPreferred')}
            </dd>
          </>
        )}
        {translations.map(([language, terms]) => (
          <TranslationRow key={language} language={languageNames.get(language) ?? language} terms={terms} />
        ))}
        {match.homonyms.length > 0 && (
          <>
            <dt>{t('decorated.homonyms')}</dt>
            <dd>
              {match.homonyms.map((homonym, i) => (
                <span key={homonym.conceptId}>
                  {i > 0 && ', '}
                  <a href={`/concepts/${homonym.conceptId}`} onClick={onLinkClick}>
                    {homonym.term}
                  </a>
                </span>
              ))}
            </dd>
          </>
        )}
      </dl>
    </>
  );
}

function TranslationRow({ language, terms }: { language: string; terms: TermRef[] }) {
  const { t } = useTranslation('check');
  return (
    <>
      <dt>{t('decorated.inLanguage', { language })}</dt>
      <dd className="translation">
        {terms.length === 0
          ? t('decorated.noTerm')
          : terms.map((term, i) => (
              <span key={term.termId}>
                {i > 0 && ', '}
                {term.name}
                <span className={`status-badge term-${term.status}`}>{t(`statusName.${term.status}`)}</span>
              </span>
            ))}
      </dd>
    </>
  );
}
