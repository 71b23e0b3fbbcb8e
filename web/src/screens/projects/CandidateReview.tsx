import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';
import { loadDictionaries, useLoaded } from '../../data';
import { formatDate, formatNumber } from '../../i18n';
import { navigate, onLinkClick, withQuery } from '../../routes';
import { AddCandidate } from './AddCandidate';
import { CandidateDecision } from './CandidateDecision';
import { ImportCandidates } from './ImportCandidates';
import { loadPeople, type Project, userName } from './project-data';
import { projectHref } from './project-routes';

const STATUSES = ['OPEN', 'MERGED', 'PROMOTED', 'REJECTED'] as const;
const PAGE_SIZE = 50;

/**
 * Candidate review: the project's candidates (by status, `status` in the URL, OPEN first) beside the one
 * chosen (`c`), its likely duplicates in the project's dictionaries, its comments and, for managers, the
 * decisions: merge into a concept, promote to a new concept, reject. Managers also import a file of
 * candidates here.
 */
export function CandidateReview({ id, query }: { id: number; query: URLSearchParams }) {
  const { t } = useTranslation('project');
  const status = (STATUSES.find((s) => s === query.get('status')) ?? 'OPEN') as (typeof STATUSES)[number];
  const chosen = Number(query.get('c')) || undefined;
  const page = Math.max(0, Number(query.get('page')) || 0);
  const project = useLoaded(
    () => trpc.projects.get.query({ id, format: 'FULL' }) as Promise<Project>,
    `project ${id}`,
  );
  const list = useLoaded(
    () => trpc.projects.candidates.query({ id, status, size: PAGE_SIZE, page }),
    `candidates ${id} ${status} ${page}`,
  );
  const go = (changes: { status?: string; c?: number; page?: number }) =>
    navigate(withQuery(`/projects/${id}/candidates`, { status, c: chosen, page, ...changes }), {
      replace: true,
    });
  const listHeading = useId();

  if (project.error) return <p role="alert">{project.error.message}</p>;
  if (!project.data) return <p role="status">{t('common:loading')}</p>;
  const manageable = project.data.manageable === true;
  const candidates = list.data?.content ?? [];
  const selected = chosen ?? candidates[0]?.id;

  return (
    <div className="candidates-page">
      <h1>{t('candidates.title', { name: project.data.name })}</h1>
      <p>
        <a href={projectHref(id)} onClick={onLinkClick}>
          {t('candidates.back', { name: project.data.name })}
        </a>
      </p>
      {manageable && (
        <>
          <ImportCandidates
            projectId={id}
            onImported={() => {
              project.reload();
              list.reload();
            }}
          />
          <AddCandidate
            project={project.data}
            onAdded={() => {
              project.reload();
              list.reload();
            }}
          />
        </>
      )}
      <Choice
        label={t('candidates.status')}
        value={status}
        options={STATUSES.map((s) => ({ value: s, label: t(`candidateStatus.${s}`) }))}
        onChange={(value) => go({ status: value, c: undefined, page: 0 })}
      />
      <ErrorMessage text={list.error?.message} />
      {list.data && (
        <p role="status" className="result-count">
          {list.data.totalElements === 0
            ? t('candidates.none')
            : t('candidates.count', {
                count: list.data.totalElements,
                formatted: formatNumber(list.data.totalElements),
              })}
        </p>
      )}
      <div className="review">
        {candidates.length > 0 && (
          <nav className="candidate-list" aria-labelledby={listHeading}>
            <h2 id={listHeading} className="visually-hidden">
              {t('candidates.list')}
            </h2>
            <ul>
              {candidates.map((c) => (
                <li key={c.id}>
                  <a
                    href={withQuery(`/projects/${id}/candidates`, { status, c: c.id, page })}
                    onClick={onLinkClick}
                    aria-current={c.id === selected ? 'true' : undefined}
                  >
                    {c.terms.map((term) => term.term).join(' · ')}
                  </a>
                </li>
              ))}
            </ul>
            {list.data && list.data.totalPages > 1 && (
              <div className="actions pager">
                <button
                  type="button"
                  disabled={list.data.first}
                  onClick={() => go({ page: page - 1, c: undefined })}
                >
                  {t('list.previous')}
                </button>
                <button
                  type="button"
                  disabled={list.data.last}
                  onClick={() => go({ page: page + 1, c: undefined })}
                >
                  {t('list.next')}
                </button>
              </div>
            )}
          </nav>
        )}
        {selected !== undefined && (
          <CandidateDetail
            key={selected}
            candidateId={selected}
            project={project.data}
            onDecided={() => {
              list.reload();
              project.reload();
            }}
          />
        )}
      </div>
    </div>
  );
}

/** One candidate: its terms, definition, source, decision, comments, and its likely duplicates beside. */
function CandidateDetail(props: { candidateId: number; project: Project; onDecided: () => void }) {
  const { t } = useTranslation('project');
  const { candidateId, project } = props;
  const candidate = useLoaded(
    () => trpc.projects.candidate.query({ candidateId }),
    `candidate ${candidateId}`,
  );
  const duplicates = useLoaded(
    () => trpc.projects.candidateDuplicates.query({ candidateId }),
    `duplicates ${candidateId}`,
  );
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const people = useLoaded(loadPeople, 'people');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (candidate.error) return <p role="alert">{candidate.error.message}</p>;
  if (!candidate.data) return <p role="status">{t('common:loading')}</p>;
  const c = candidate.data;
  const names = new Map((dictionaries.data ?? []).map((d) => [d.id, d.name ?? String(d.id)]));
  const languageNames = new Map(
    (dictionaries.data ?? []).flatMap((d) => (d.languages ?? []).map((l) => [l.code, l.name] as const)),
  );
  const who = (userId: number | null | undefined) =>
    userId ? (userName(people.data, userId) ?? t('userN', { id: userId })) : '';

  async function addComment(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await trpc.projects.commentCandidate.mutate({ candidateId, text: comment });
      setComment('');
      candidate.reload();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  return (
    <div className="candidate-detail">
      <section className="card" aria-labelledby="candidate-title">
        <h2 id="candidate-title">{c.terms.map((term) => term.term).join(' · ')}</h2>
        <dl className="fields">
          {c.terms.map((term) => (
            <div key={`${term.languageCode} ${term.term}`} className="field-row">
              <dt>{languageNames.get(term.languageCode) ?? term.languageCode}</dt>
              <dd>{term.term}</dd>
            </div>
          ))}
          {c.definition && (
            <div className="field-row">
              <dt>{t('candidates.definition')}</dt>
              <dd className="prewrap">{c.definition}</dd>
            </div>
          )}
          {c.note && (
            <div className="field-row">
              <dt>{t('candidates.note')}</dt>
              <dd className="prewrap">{c.note}</dd>
            </div>
          )}
          {c.source && (
            <div className="field-row">
              <dt>{t('candidates.source')}</dt>
              <dd>{c.source}</dd>
            </div>
          )}
          <div className="field-row">
            <dt>{t('candidates.status')}</dt>
            <dd>
              {t(`candidateStatus.${c.status}`)}
              {c.decided &&
                ` ${t('candidates.decidedBy', { who: c.decided.fullName || c.decided.name || who(c.decided.id), when: formatDate(c.decided.time) })}`}
              {c.conceptId !== null && (
                <>
                  {' '}
                  <a href={`/concepts/${c.conceptId}`} onClick={onLinkClick}>
                    {t('candidates.conceptN', { id: c.conceptId })}
                  </a>
                </>
              )}
            </dd>
          </div>
          {c.decisionComment && (
            <div className="field-row">
              <dt>{t('candidates.decisionComment')}</dt>
              <dd className="prewrap">{c.decisionComment}</dd>
            </div>
          )}
        </dl>
        {project.manageable && c.status === 'OPEN' && (
          <CandidateDecision
            candidate={c}
            project={project}
            onDecided={() => {
              candidate.reload();
              props.onDecided();
            }}
          />
        )}
        <h3>{t('candidates.comments')}</h3>
        {c.comments.length === 0 && <p className="hint">{t('candidates.noComments')}</p>}
        <ul className="comment-list">
          {c.comments.map((entry) => (
            <li key={entry.id}>
              <span className="hint">
                {who(entry.userId)} · {formatDate(entry.createdAt)}
              </span>
              <p className="prewrap">{entry.text}</p>
            </li>
          ))}
        </ul>
        <form className="inline-form" onSubmit={(event) => void addComment(event)}>
          <label>
            {t('candidates.comment')}
            <textarea value={comment} onChange={(e) => setComment(e.target.value)} />
          </label>
          <button type="submit" disabled={!comment.trim()}>
            {t('candidates.addComment')}
          </button>
        </form>
        <ErrorMessage text={error} />
      </section>
      <section className="card duplicates" aria-labelledby="duplicates-title">
        <h2 id="duplicates-title">{t('candidates.duplicates')}</h2>
        <ErrorMessage text={duplicates.error?.message} />
        {duplicates.data?.length === 0 && <p>{t('candidates.noDuplicates')}</p>}
        {duplicates.data && duplicates.data.length > 0 && (
          <ul className="duplicate-list">
            {duplicates.data.map((d) => (
              <li key={d.termId}>
                <a href={`/concepts/${d.conceptId}`} onClick={onLinkClick}>
                  {d.term}
                </a>{' '}
                <span className="hint">
                  {t('candidates.duplicateOf', {
                    language: languageNames.get(d.languageCode) ?? d.languageCode,
                    dictionary: names.get(d.dictionaryId) ?? d.dictionaryId,
                    id: d.conceptId,
                  })}
                </span>
                {project.manageable && c.status === 'OPEN' && (
                  <CandidateDecision.Merge
                    candidateId={c.id}
                    conceptId={d.conceptId}
                    label={t('candidates.mergeInto', { term: d.term, id: d.conceptId })}
                    onDecided={() => {
                      candidate.reload();
                      props.onDecided();
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
