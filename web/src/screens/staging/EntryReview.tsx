import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { namesOf } from '../../components/concept-text';
import { ErrorMessage } from '../../components/controls';
import { type Dictionary, loadDictionaries, useLoaded } from '../../data';
import { formatDate } from '../../i18n';
import { onLinkClick } from '../../routes';
import { type AcceptChoice, AcceptOptions, acceptInput } from './AcceptOptions';
import { ChangeList } from './ChangeList';
import { EntryEditor } from './EntryEditor';
import { EntryView } from './EntryView';
import { cleanContent, hasTerm, type StagedContent, type StagedEntryDetail } from './staging-data';
import { areaHref, entryHref } from './staging-routes';
import { useWorkflowStates } from './workflow-states';

/**
 * /staging/entries/:id: one staged entry beside the concept it would change, with what accepting would
 * change field by field (docs/staging.md, "Diff"). Reviewers accept it (merge mode, workflow state),
 * edit it, or reject it with a reason; its suggester edits or withdraws it while it is pending. The
 * decisions made on it are listed below.
 */
export function EntryReview({ id }: { id: number }) {
  const { t } = useTranslation('staging');
  const entry = useLoaded(() => trpc.staging.getEntry.query({ id }), `staged entry ${id}`);
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const states = useWorkflowStates(entry.data?.dictionaryId);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  if (entry.error)
    return (
      <>
        <h1>{t('entry.staged')}</h1>
        <p role="alert">{entry.error.message}</p>
      </>
    );
  if (!entry.data) return <p role="status">{t('common:loading')}</p>;
  const data = entry.data;
  const dictionary = dictionaries.data?.find((d) => d.id === data.dictionaryId);
  const pending = data.status === 'PENDING';
  const decided = (message: string) => {
    setNotice(message);
    setEditing(false);
    entry.reload();
  };

  return (
    <article className="staging-page stack" aria-labelledby="staged-title">
      <p>
        <a href={areaHref(data.stagingAreaId)} onClick={onLinkClick}>
          {t('entry.back')}
        </a>
      </p>
      <h1 id="staged-title">
        <span className="value">{data.label}</span>{' '}
        <span className={`badge staged-${data.status.toLowerCase()}`}>{t(`status.${data.status}`)}</span>
      </h1>
      <p className="hint">
        {t(`source.${data.source}`)}
        {data.fileName && ` · ${data.fileName}`}
        {data.line !== null && ` · ${t('entry.line', { line: data.line })}`}
        {data.createdBy &&
          ` · ${t('entry.by', { who: data.createdBy.name, when: formatDate(data.created) })}`}
      </p>
      {data.comment && (
        <p className="prewrap staged-comment">
          <span className="hint">{t('entry.comment')} </span>
          {data.comment}
        </p>
      )}
      {notice && (
        <p role="status" className="notice">
          {notice} <NextPending areaId={data.stagingAreaId} current={id} />
        </p>
      )}
      <div className="side-by-side">
        <section className="card" aria-labelledby="current-title">
          <h2 id="current-title">{t('entry.current')}</h2>
          <Current detail={data} dictionary={dictionary} />
        </section>
        <section className="card" aria-labelledby="staged-side-title">
          <h2 id="staged-side-title">{t('entry.staged')}</h2>
          <EntryView content={data.entry} dictionary={dictionary} />
        </section>
      </div>
      {pending && (
        <section className="card" aria-labelledby="diff-title">
          <h2 id="diff-title">{t('diff.title')}</h2>
          <p className="hint">{t('diff.hint')}</p>
          <ChangeList changes={data.diff.changes} dictionary={dictionary} />
        </section>
      )}
      {pending && editing && (data.mayEdit || data.mayReview) && (
        <EditEntry
          detail={data}
          dictionary={dictionary}
          onSaved={() => decided(t('edit.saved'))}
          onCancel={() => setEditing(false)}
        />
      )}
      {pending && !editing && (data.mayReview || data.mayEdit) && (
        <Decide detail={data} states={states} onEdit={() => setEditing(true)} onDecided={decided} />
      )}
      <Decisions detail={data} states={states} />
    </article>
  );
}

/** The concept the entry would change, as it is now (its terms by language), or "a new concept". */
function Current({ detail, dictionary }: { detail: StagedEntryDetail; dictionary?: Dictionary }) {
  const { t } = useTranslation('staging');
  const names = namesOf(dictionary);
  if (!detail.target) return <p>{t('entry.newConcept')}</p>;
  const target = detail.target;
  const codes = [...new Set(target.terms.map((term) => term.languageCode))];
  return (
    <div className="staged-entry">
      <p>
        <a href={`/concepts/${target.id}`} onClick={onLinkClick}>
          {t('entry.conceptN', { id: target.id })}
        </a>
      </p>
      {codes.map((code) => (
        <section key={code} className="staged-language" aria-label={names.language(code)}>
          <h3>{names.language(code)}</h3>
          <ul className="staged-terms">
            {target.terms
              .filter((term) => term.languageCode === code)
              .map((term) => (
                <li key={term.id}>
                  <span className="term-name value">{term.name}</span>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Accept (merge mode, workflow state), edit, or reject with a reason. */
function Decide(props: {
  detail: StagedEntryDetail;
  states: { key: string; name: string }[] | undefined;
  onEdit: () => void;
  onDecided: (message: string) => void;
}) {
  const { t } = useTranslation('staging');
  const { detail } = props;
  const [choice, setChoice] = useState<AcceptChoice>({ merge: '', workflowState: '' });
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<string>) {
    setBusy(true);
    setError(null);
    setProblems([]);
    try {
      props.onDecided(await action());
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  const accept = () =>
    run(async () => {
      const answer = await trpc.staging.acceptEntry.mutate({
        id: detail.id,
        version: detail.version,
        ...acceptInput(choice),
      });
      if (answer.entry.status !== 'ACCEPTED') {
        setProblems(answer.result.errors.map((e) => e.message));
        throw new Error(t('decide.notAccepted'));
      }
      const conceptId = answer.entry.decision?.conceptId;
      return conceptId ? t('decide.acceptedInto', { id: conceptId }) : t('decide.accepted');
    });
  const reject = () =>
    run(async () => {
      await trpc.staging.rejectEntry.mutate({
        id: detail.id,
        version: detail.version,
        reason: reason.trim() || undefined,
      });
      return t('decide.rejected');
    });

  return (
    <section className="card stack decide" aria-labelledby="decide-title">
      <h2 id="decide-title">{t('decide.title')}</h2>
      {detail.mayReview && (
        <div className="form-row">
          <AcceptOptions value={choice} onChange={setChoice} states={props.states} />
          <button type="button" className="primary" disabled={busy} onClick={() => void accept()}>
            {t('decide.accept')}
          </button>
        </div>
      )}
      <div className="actions">
        <button type="button" disabled={busy} onClick={props.onEdit}>
          {t('decide.edit')}
        </button>
      </div>
      <div className="form-row">
        <label>
          {t('decide.reason')}
          <input value={reason} maxLength={4000} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="button" className="danger" disabled={busy} onClick={() => void reject()}>
          {detail.mayReview ? t('decide.reject') : t('decide.withdraw')}
        </button>
      </div>
      <ErrorMessage text={error} />
      {problems.length > 0 && (
        <ul className="error">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The entry's content, its target concept and the note, saved as an EDITED decision. */
function EditEntry(props: {
  detail: StagedEntryDetail;
  dictionary?: Dictionary;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('staging');
  const { detail } = props;
  const [content, setContent] = useState<StagedContent>(detail.entry);
  const [conceptId, setConceptId] = useState(detail.targetConceptId ? String(detail.targetConceptId) : '');
  const [comment, setComment] = useState(detail.comment ?? '');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await trpc.staging.updateEntry.mutate({
        id: detail.id,
        version: detail.version,
        entry: cleanContent(content),
        // Sent only when changed: naming no concept makes the entry a new concept (merge NONE).
        ...(conceptId === (detail.targetConceptId ? String(detail.targetConceptId) : '')
          ? {}
          : { conceptId: Number(conceptId) || null }),
        comment: comment.trim() || null,
      });
      props.onSaved();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  return (
    <form className="card stack" aria-labelledby="edit-title" onSubmit={(e) => void submit(e)}>
      <h2 id="edit-title">{t('edit.title')}</h2>
      <EntryEditor
        content={content}
        dictionary={props.dictionary}
        onChange={setContent}
        label={t('edit.entry')}
      />
      <label>
        {t('edit.conceptId')}
        <input
          inputMode="numeric"
          value={conceptId}
          aria-describedby="edit-concept-hint"
          onChange={(e) => setConceptId(e.target.value.replace(/\D/g, ''))}
        />
        <span id="edit-concept-hint" className="hint">
          {t('edit.conceptIdHint')}
        </span>
      </label>
      <label>
        {t('edit.comment')}
        <textarea value={comment} maxLength={4000} onChange={(e) => setComment(e.target.value)} />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={!hasTerm(content)}>
          {t('edit.save')}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t('common:cancel')}
        </button>
      </div>
      <ErrorMessage text={error} />
    </form>
  );
}

/** Every decision on the entry, oldest first: who, when, what, why, and the concept written. */
function Decisions({
  detail,
  states,
}: {
  detail: StagedEntryDetail;
  states?: { key: string; name: string }[];
}) {
  const { t } = useTranslation('staging');
  if (detail.decisions.length === 0) return null;
  return (
    <section className="card" aria-labelledby="decisions-title">
      <h2 id="decisions-title">{t('decisions.title')}</h2>
      <ul className="decision-list">
        {detail.decisions.map((decision) => (
          <li key={decision.id}>
            <strong>{t(`decisions.kind.${decision.decision}`)}</strong>{' '}
            <span className="hint">
              {t('decisions.by', { who: decision.decidedBy?.name ?? '', when: formatDate(decision.decided) })}
            </span>
            {decision.conceptId !== null && (
              <>
                {' '}
                <a href={`/concepts/${decision.conceptId}`} onClick={onLinkClick}>
                  {t('entry.conceptN', { id: decision.conceptId })}
                </a>
              </>
            )}
            {decision.workflowState && (
              <span>
                {' '}
                ·{' '}
                {t('decisions.state', {
                  state:
                    states?.find((s) => s.key === decision.workflowState)?.name ?? decision.workflowState,
                })}
              </span>
            )}
            {decision.reason && <p className="prewrap">{decision.reason}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A link to the area's next pending entry after a decision (none: back to the area). */
function NextPending({ areaId, current }: { areaId: number; current: number }) {
  const { t } = useTranslation('staging');
  const next = useLoaded(
    () =>
      trpc.staging.listEntries
        .query({ id: areaId, status: 'PENDING', page: 0, size: 2 })
        .then((page) => page.content.find((e) => e.id !== current) ?? null),
    `next pending ${areaId} ${current}`,
  );
  if (!next.data) return null;
  return (
    <a href={entryHref(next.data.id)} onClick={onLinkClick}>
      {t('entry.next', { label: next.data.label })}
    </a>
  );
}
