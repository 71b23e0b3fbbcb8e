import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';
import { loadDictionaries, useLoaded } from '../../data';
import type { Candidate, Project } from './project-data';

/**
 * A manager's decision on an open candidate, with an optional comment recorded beside it: promote to a
 * new concept (in one of the project's dictionaries), merge into a concept named by id, or reject.
 * Merging into a likely duplicate is offered beside each duplicate (CandidateDecision.Merge).
 */
export function CandidateDecision(props: { candidate: Candidate; project: Project; onDecided: () => void }) {
  const { t } = useTranslation('project');
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const own = (dictionaries.data ?? []).filter((d) => props.project.dictionaryIds?.includes(d.id));
  const [dictionaryId, setDictionaryId] = useState('');
  const [conceptId, setConceptId] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const candidateId = props.candidate.id;

  async function decide(run: () => Promise<unknown>) {
    setError(null);
    try {
      await run();
      props.onDecided();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }
  const note = comment.trim() || undefined;

  return (
    <fieldset className="decision">
      <legend>{t('decision.title')}</legend>
      <label>
        {t('decision.comment')}
        <input value={comment} onChange={(e) => setComment(e.target.value)} />
      </label>
      <div className="actions">
        {own.length > 1 && (
          <Choice
            label={t('decision.dictionary')}
            value={dictionaryId}
            options={own.map((d) => ({ value: String(d.id), label: d.name ?? String(d.id) }))}
            empty={own[0]?.name ?? ''}
            onChange={setDictionaryId}
          />
        )}
        <button
          type="button"
          className="primary"
          onClick={() =>
            void decide(() =>
              trpc.projects.promoteCandidate.mutate({
                candidateId,
                dictionaryId: Number(dictionaryId) || undefined,
                comment: note,
              }),
            )
          }
        >
          {t('decision.promote')}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() =>
            void decide(() => trpc.projects.rejectCandidate.mutate({ candidateId, comment: note }))
          }
        >
          {t('decision.reject')}
        </button>
      </div>
      <div className="inline-form">
        <label>
          {t('decision.conceptId')}
          <input inputMode="numeric" value={conceptId} onChange={(e) => setConceptId(e.target.value)} />
        </label>
        <button
          type="button"
          disabled={!Number(conceptId)}
          onClick={() =>
            void decide(() =>
              trpc.projects.mergeCandidate.mutate({
                candidateId,
                conceptId: Number(conceptId),
                addTerms: true,
                comment: note,
              }),
            )
          }
        >
          {t('decision.merge')}
        </button>
      </div>
      <ErrorMessage text={error} />
    </fieldset>
  );
}

/** "Merge into this concept" beside a likely duplicate. */
CandidateDecision.Merge = function Merge(props: {
  candidateId: number;
  conceptId: number;
  label: string;
  onDecided: () => void;
}) {
  const { t } = useTranslation('project');
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {' '}
      <button
        type="button"
        onClick={() =>
          void trpc.projects.mergeCandidate
            .mutate({ candidateId: props.candidateId, conceptId: props.conceptId, addTerms: true })
            .then(props.onDecided, (caught: unknown) => setError(problemOf(caught).message))
        }
      >
        {t('decision.mergeHere')}
        <span className="visually-hidden"> {props.label}</span>
      </button>
      <ErrorMessage text={error} />
    </>
  );
};
