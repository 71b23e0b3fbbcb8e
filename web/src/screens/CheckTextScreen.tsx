import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import { CheckList, Choice, dictionaryOptions, ErrorMessage, languageOptions } from '../components/controls';
import { DecoratedText, type TermMatch } from '../components/DecoratedText';
import { TermCheckReport } from '../components/TermCheckReport';
import { type Dictionary, languagesOf, loadDictionaries, useLoaded } from '../data';
import { formatNumber } from '../i18n';
import { codeList, navigate, withQuery } from '../routes';

/**
 * Check text: pasted text decorated with the terms of the termbase (termDecoration.decorate,
 * docs/decoration.md), each marked with its status, what to write instead and its translations.
 * With a translation, termDecoration.check also reports the terms to avoid and the missing ones.
 * The whole state is in the URL: d (dictionary, none for all), from, to (target languages), t (text),
 * tl and tt (language and text of the translation).
 */
export default function CheckTextScreen({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('check');
  const loaded = useLoaded(loadDictionaries, 'dictionaries');
  if (loaded.error) return <p role="alert">{loaded.error.message}</p>;
  if (!loaded.data) return <p role="status">{t('common:loading')}</p>;
  return <CheckText dictionaries={loaded.data} query={query} />;
}

/** Texts up to this many characters are kept in the URL (`t`), longer ones in the page only. */
const URL_TEXT_LIMIT = 2000;

const STATUSES: TermMatch['status'][] = ['forbidden', 'deprecated', 'admitted', 'preferred'];

function CheckText({ dictionaries, query }: { dictionaries: Dictionary[]; query: URLSearchParams }) {
  const { t } = useTranslation('check');
  const dictionaryId = Number(query.get('d')) || null;
  const chosen = dictionaries.filter((d) => dictionaryId === null || d.id === dictionaryId);
  const languages = languagesOf(chosen);
  const from = query.get('from') || languages[0]?.code || '';
  const to = codeList(query.get('to'));
  // A long text stays in the page, not the URL: a reload would send it in the request line (Node's
  // 16 KB header limit), and a shared link of pages of text is no use.
  const [longTexts, setLongTexts] = useState<{ text: string; target: string } | null>(null);
  const urlText = query.get('t');
  const text = urlText ?? longTexts?.text ?? '';
  const target = (urlText !== null ? query.get('tt') : longTexts?.target) ?? '';
  const targetLang = query.get('tl') || to[0] || languages.find((l) => l.code !== from)?.code || '';
  const [draft, setDraft] = useState(text);
  const [draftTarget, setDraftTarget] = useState(target);
  // Back and forward bring the texts of that URL into the boxes too.
  const urlTarget = query.get('tt');
  useEffect(() => {
    if (urlText !== null) setDraft(urlText);
    if (urlText !== null) setDraftTarget(urlTarget ?? '');
  }, [urlText, urlTarget]);

  const request = { from, to, text, dictionaryId };
  const result = useLoaded(
    () =>
      text.trim() && from
        ? trpc.termDecoration.decorate.mutate({
            sourceLang: from,
            targetLangs: to,
            dictionaryIds: dictionaryId === null ? undefined : [dictionaryId],
            segments: [{ id: 'text', text, format: 'text' }],
          })
        : Promise.resolve(null),
    JSON.stringify(request),
  );
  const check = useLoaded(
    () =>
      text.trim() && target.trim() && from && targetLang
        ? trpc.termDecoration.check.mutate({
            sourceLang: from,
            targetLang,
            source: text,
            target,
            format: 'text',
            dictionaryIds: dictionaryId === null ? undefined : [dictionaryId],
          })
        : Promise.resolve(null),
    JSON.stringify({ ...request, target, targetLang }),
  );

  const go = (change: Record<string, string | null>) =>
    navigate(
      withQuery('/check', {
        d: dictionaryId,
        from,
        to: to.join(','),
        tl: query.get('tl'),
        t: urlText,
        tt: urlText === null ? null : urlTarget,
        ...change,
      }),
      { replace: !('t' in change) },
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    const long = draft.length + draftTarget.length > URL_TEXT_LIMIT;
    setLongTexts(long ? { text: draft, target: draftTarget } : null);
    go({ t: long ? null : draft, tt: long ? null : draftTarget });
  }

  const matches = result.data?.segments[0]?.matches ?? [];
  return (
    <div className="stack">
      <h1>{t('title')}</h1>
      <form className="stack check-form" onSubmit={submit} aria-label={t('form')}>
        <div className="pickers">
          <Choice
            label={t('dictionary')}
            value={dictionaryId ?? ''}
            options={dictionaryOptions(dictionaries)}
            empty={t('allDictionaries')}
            onChange={(value) => go({ d: value || null, from: null, to: null })}
          />
          <Choice
            label={t('language')}
            value={from}
            options={languageOptions(languages, true)}
            onChange={(value) => go({ from: value })}
          />
          <CheckList
            legend={t('translationsInto')}
            options={languageOptions(languages.filter((l) => l.code !== from))}
            chosen={to}
            onChange={(codes) => go({ to: codes.join(',') })}
          />
        </div>
        {/* Labelled by id, not by wrapping: a wrapping label's name would take in the text typed. */}
        <div className="stack">
          <label htmlFor="check-text">{t('text')}</label>
          <textarea id="check-text" rows={6} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <Choice
          label={t('targetLanguage')}
          value={targetLang}
          options={languageOptions(
            languages.filter((l) => l.code !== from),
            true,
          )}
          onChange={(value) => go({ tl: value })}
        />
        <div className="stack">
          <label htmlFor="check-target">{t('target')}</label>
          <textarea
            id="check-target"
            rows={4}
            value={draftTarget}
            onChange={(e) => setDraftTarget(e.target.value)}
          />
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            {t('submit')}
          </button>
        </div>
      </form>
      <ErrorMessage text={result.error?.message ?? check.error?.message} />
      {result.loading && text && <p role="status">{t('checking')}</p>}
      {result.data && (
        <>
          <p role="status" className="result-count">
            {summary(matches, t)}
          </p>
          <DecoratedText
            key={text}
            text={text}
            matches={matches}
            languageNames={new Map(languages.map((l) => [l.code, l.name]))}
          />
        </>
      )}
      {check.data && (
        <TermCheckReport
          check={check.data}
          language={languages.find((l) => l.code === targetLang)?.name ?? targetLang}
        />
      )}
    </div>
  );
}

/** "3 terms: 1 forbidden, 2 preferred", worst first. */
function summary(matches: TermMatch[], t: TFunction): string {
  if (matches.length === 0) return t('none');
  const counts = STATUSES.map(
    (status) => [status, matches.filter((m) => m.status === status).length] as const,
  )
    .filter(([, count]) => count > 0)
    .map(([status, count]) => t(`status.${status}`, { count: formatNumber(count) }));
  return t('summary', {
    count: matches.length,
    formatted: formatNumber(matches.length),
    counts: counts.join(', '),
  });
}
