import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';
import type { Dictionary } from '../../data';
import { onLinkClick } from '../../routes';
import { EntryEditor } from './EntryEditor';
import { cleanContent, emptyContent, hasTerm, type StagedContent, type StagingArea } from './staging-data';
import { entryHref } from './staging-routes';

/**
 * "Suggest an entry": a new entry typed into the area, staged for its reviewers (staging.suggest, matched
 * to a concept by term). Shown, folded, under an area's entries.
 */
export function SuggestEntry(props: { area: StagingArea; dictionary?: Dictionary; onSuggested: () => void }) {
  const { t } = useTranslation('staging');
  const lang = props.dictionary?.languages?.find((l) => !l.deleted)?.code ?? 'en';
  return (
    <details className="card suggest-entry">
      <summary>{t('suggest.newEntry')}</summary>
      <SuggestForm
        areas={[props.area]}
        dictionary={props.dictionary}
        initial={emptyContent(lang)}
        onSuggested={props.onSuggested}
      />
    </details>
  );
}

/**
 * The suggestion form: the area (where more than one), the entry, a note to the reviewers. With
 * `conceptId` the suggestion is a change of that concept (merged into it when accepted).
 */
export function SuggestForm(props: {
  areas: StagingArea[];
  dictionary?: Dictionary;
  initial: StagedContent;
  conceptId?: number;
  onSuggested: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('staging');
  const [areaId, setAreaId] = useState(String(props.areas[0]?.id ?? ''));
  const [content, setContent] = useState(props.initial);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ id: number; area: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const area = props.areas.find((a) => String(a.id) === areaId) ?? props.areas[0];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!area) return;
    setError(null);
    setBusy(true);
    try {
      const entry = await trpc.staging.suggest.mutate({
        id: area.id,
        entry: cleanContent(content),
        conceptId: props.conceptId,
        merge: 'TERM',
        comment: comment.trim() || undefined,
      });
      setSent({ id: entry.id, area: area.name });
      setContent(props.initial);
      setComment('');
      props.onSuggested();
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack suggest-form" onSubmit={(e) => void submit(e)} aria-label={t('suggest.form')}>
      {props.areas.length > 1 && (
        <Choice
          label={t('suggest.area')}
          value={areaId}
          options={props.areas.map((a) => ({ value: String(a.id), label: a.name }))}
          onChange={setAreaId}
        />
      )}
      <EntryEditor
        content={content}
        dictionary={props.dictionary}
        onChange={setContent}
        label={props.conceptId ? t('suggest.changedEntry') : t('suggest.entry')}
      />
      <label>
        {t('suggest.comment')}
        <textarea value={comment} maxLength={4000} onChange={(e) => setComment(e.target.value)} />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || !hasTerm(content)}>
          {t('suggest.send')}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {t('common:cancel')}
          </button>
        )}
      </div>
      <ErrorMessage text={error} />
      {sent && (
        <p role="status">
          {t('suggest.sent', { area: sent.area })}{' '}
          <a href={entryHref(sent.id)} onClick={onLinkClick}>
            {t('suggest.open')}
          </a>
        </p>
      )}
    </form>
  );
}
