import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import type { Concept, Dictionary, Term } from '../data';
import { useLoaded } from '../data';
import { formatDate } from '../i18n';
import { useRestoreQuestion } from '../work/confirmations';
import { namesOf } from './concept-text';
import { ErrorMessage } from './controls';
import { type Change, ChangesTable } from './HistoryPanel';

type Item = NonNullable<Awaited<ReturnType<typeof trpc.history.concept.query>>['content']>[number];

/**
 * The term as a concept write that restores it to the state `item` recorded: every live term is sent
 * (a patch deletes the ones left out) by id and name, so only this one changes; its fields take the old
 * values (fields added since are cleared) and its links come back with them.
 */
export function restoreBody(concept: Concept, term: Term, item: Item) {
  const old = item.snapshot?.terms.find((t) => t.id === term.id);
  if (!old) return null;
  const cleared = Object.fromEntries(Object.keys(term.fieldMap).map((oid) => [oid, [] as string[]]));
  const links = (item.snapshot?.refLinks ?? [])
    .filter((link) => link.sourceTermId === term.id)
    .map(({ sourceTermId: _source, ...link }) => link);
  return {
    id: concept.id,
    version: concept.version ?? 0,
    format: 'ID' as const,
    'with-comments': false,
    terms: (concept.terms ?? []).map((t) =>
      t.id === term.id
        ? {
            id: t.id,
            name: old.name,
            languageCode: old.languageCode,
            regionCode: old.regionCode,
            scriptCode: old.scriptCode,
            fieldMap: { ...cleared, ...old.fieldMap },
            refLinks: links,
          }
        : { id: t.id, name: t.name, languageCode: t.languageCode },
    ),
  };
}

/**
 * One term's history, newest first: the concept's history items that changed this term, with those
 * changes field by field, and a button that brings an earlier state of the term back (the concept's
 * other terms and fields stay as they are). Restoring needs TERM_UPDATE on the term.
 */
export function TermHistory(props: {
  concept: Concept;
  term: Term;
  dictionary?: Dictionary;
  onRestored: () => void;
}) {
  const { t } = useTranslation('concept');
  const { concept, term, dictionary, onRestored } = props;
  const history = useLoaded(
    () => trpc.history.concept.query({ conceptId: concept.id, page: 0, size: 100, format: 'FULL' }),
    `history ${concept.id} ${concept.version}`,
  );
  const [error, setError] = useState<string | null>(null);
  const names = namesOf(dictionary);
  const canRestore = term.permissions?.TERM_UPDATE ?? false;
  const confirmRestore = useRestoreQuestion();

  async function restore(item: Item) {
    if (!confirmRestore(item.revision)) return;
    setError(null);
    const body = restoreBody(concept, term, item);
    if (!body) return;
    try {
      await trpc.concepts.patch.mutate(body);
      onRestored();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  const items = (history.data?.content ?? [])
    .map((item) => ({
      item,
      changes: ((item.changes ?? []) as Change[]).filter((c) => c.termId === term.id),
    }))
    .filter(({ changes }) => changes.length > 0);
  return (
    <section aria-label={t('history.ofTerm', { term: term.name })} className="term-history">
      <h3>{t('tabs.history')}</h3>
      <ErrorMessage text={history.error?.message} />
      <ErrorMessage text={error} />
      {history.data && items.length === 0 && <p className="hint">{t('history.none')}</p>}
      <ol className="history" style={{ listStyle: 'none', padding: 0 }}>
        {items.map(({ item, changes }, index) => {
          const termNames = new Map((item.snapshot?.terms ?? []).map((t) => [t.id, t.name]));
          const restorable = index > 0 && canRestore && item.snapshot?.terms.some((t) => t.id === term.id);
          return (
            <li key={item.id} className="history-item">
              <h4 style={{ margin: 0 }}>
                {t('history.termItem', {
                  revision: item.revision,
                  who: item.user?.fullName || item.user?.name || t('someone'),
                })}{' '}
                · {item.time ? formatDate(item.time) : ''}
              </h4>
              <ChangesTable changes={changes} names={names} termNames={termNames} />
              {restorable && (
                <button type="button" onClick={() => void restore(item)}>
                  {t('history.restoreTerm', { revision: item.revision })}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
