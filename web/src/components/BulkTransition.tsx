import * as Progress from '@radix-ui/react-progress';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { type Caller, useCaller } from '../caller';
import { useLoaded } from '../data';
import { formatNumber } from '../i18n';
import { onLinkClick } from '../routes';
import { Choice, ErrorMessage } from './controls';

const POLL_MS = 300;
type Entry = Awaited<ReturnType<typeof trpc.workflows.entries.query>>[number];

/** Every entry of the dictionary in `state` (workflows.entries, page by page). */
async function entriesIn(dictionaryId: number, state: string): Promise<Entry[]> {
  const all: Entry[] = [];
  for (let page = 0; page < 200; page++) {
    const batch = await trpc.workflows.entries.query({
      'dictionary-id': dictionaryId,
      state,
      size: 1000,
      page,
    });
    all.push(...batch);
    if (batch.length < 1000) break;
  }
  return all;
}

type Transition = { roles?: string[]; groupIds?: number[] };

/**
 * Whether the transition may name the caller (the server's mayFire, workflow-rules.ts): a role the caller
 * holds, USER, the dictionary's administrators. The browser does not know the caller's groups: a
 * transition that names groups stays offered, and the server decides.
 */
function mayName(transition: Transition, caller: Caller, dictionary: { id: number; oid?: string | null }) {
  if (caller.guest) return false;
  if ((transition.groupIds ?? []).length > 0) return true;
  return (transition.roles ?? []).some((role) =>
    role === 'USER'
      ? true
      : role === 'DICTIONARY_ADMIN'
        ? caller.roles.includes(`DICTIONARY_ADMIN@${dictionary.oid ?? String(dictionary.id)}`)
        : caller.roles.includes(role),
  );
}

const entryKey = (entry: Pick<Entry, 'conceptId' | 'languageCode' | 'termId'>) =>
  `${entry.conceptId} ${entry.languageCode ?? ''} ${entry.termId ?? ''}`;

/** The job's result (workflow-bulk.schema.ts): counts, and the entries refused with the reason. */
interface BulkResult {
  moved: number;
  waiting: number;
  skippedCount: number;
  skipped: { conceptId: number; languageCode: string | null; termId: number | null; reason: string }[];
}
const isBulkResult = (value: unknown): value is BulkResult =>
  typeof value === 'object' && value !== null && 'skippedCount' in value && 'waiting' in value;

interface Report {
  moved: Entry[];
  refused: BulkResult['skipped'];
  /** Concepts with nothing moved nor refused: no entry in a state it leaves, or votes still missing. */
  untouched: number[];
  waiting: number;
  labels: Map<number, string>;
}

/**
 * A bulk transition from the search results (issue 28, docs/workflows.md): the transition of the
 * dictionary's enabled workflow fired on the selected concepts, or on every concept matching the
 * search, as one job (`workflows.bulkTransition`) followed with a progress bar; then a report per
 * entry: which moved, which the server refused and why (a condition, empty required fields, a repeated
 * vote), and which concepts had none that could. A voted transition casts the caller's vote on each.
 */
export function BulkTransition(props: {
  dictionaryId: number;
  /** The dictionary's oid: its administrators hold DICTIONARY_ADMIN@<oid>. */
  dictionaryOid?: string | null;
  selected: number[];
  allMatching: () => Promise<number[]>;
  onReady: (ready: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('workflow');
  const { dictionaryId, selected, onReady } = props;
  const workflow = useLoaded(
    () =>
      trpc.workflows.list
        .query({
          'dictionary-id': dictionaryId,
          enabled: true,
          page: 0,
          size: 1,
          format: 'FULL',
          'include-deleted': false,
        })
        .then((page) => page.content[0] ?? null),
    `bulk workflow ${dictionaryId}`,
  );
  const caller = useCaller();
  const definition = workflow.data?.definition;
  // Only the transitions the caller may fire are offered (none while the caller loads).
  const transitions = (definition?.transitions ?? []).filter(
    (transition) => !!caller && mayName(transition, caller, { id: dictionaryId, oid: props.dictionaryOid }),
  );
  const [transition, setTransition] = useState('');
  const [scope, setScope] = useState<'selected' | 'all'>('selected');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useState<{ running: boolean; moved: number; total: number | null } | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const ready = transitions.length > 0;
  useEffect(() => onReady(ready), [ready, onReady]);
  if (!ready || !definition) return null;
  const chosen = transitions.find((t) => t.key === transition) ?? transitions[0]!;
  const stateName = (key: string) => definition.states.find((state) => state.key === key)?.name ?? key;

  async function follow(jobTaskId: number): Promise<unknown> {
    for (;;) {
      const task = await trpc.jobs.get.query({ id: jobTaskId });
      setJob({ running: task.status === 'RUNNING', moved: task.processed ?? 0, total: task.total ?? null });
      if (task.status === 'FAILED') throw new Error(task.message ?? 'The bulk transition failed');
      if (task.status !== 'RUNNING') return task.result;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async function apply(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setReport(null);
    try {
      const conceptIds = scope === 'all' ? await props.allMatching() : selected;
      if (conceptIds.length === 0)
        throw new Error('Select at least one result, or choose all matching the search.');
      setJob({ running: true, moved: 0, total: conceptIds.length });
      const before = new Set((await entriesIn(dictionaryId, chosen.to)).map(entryKey));
      const answer = await trpc.workflows.bulkTransition.mutate({
        dictionaryId,
        transition: chosen.key,
        conceptIds,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      const result =
        answer.jobTaskId !== undefined && answer.result === undefined
          ? await follow(answer.jobTaskId)
          : answer.result;
      const outcome = isBulkResult(result) ? result : null;
      const wanted = new Set(conceptIds);
      const moved = (await entriesIn(dictionaryId, chosen.to)).filter(
        (entry) => wanted.has(entry.conceptId) && !before.has(entryKey(entry)),
      );
      const refused = outcome?.skipped ?? [];
      const reached = new Set([...moved, ...refused].map((entry) => entry.conceptId));
      const untouched = conceptIds.filter((id) => !reached.has(id));
      const shown = [...new Set([...reached, ...untouched])].slice(0, 500);
      const labels = shown.length
        ? new Map(
            (await trpc.concepts.labels.query({ ids: shown })).map((l) => [
              l.id,
              l.label ?? `Concept ${l.id}`,
            ]),
          )
        : new Map<number, string>();
      setJob({ running: false, moved: moved.length, total: moved.length });
      setReport({ moved, refused, untouched, waiting: outcome?.waiting ?? 0, labels });
      props.onDone();
    } catch (caught) {
      setError(problemOf(caught).message);
      setJob(null);
    }
  }

  const percent = job
    ? job.running
      ? job.total
        ? Math.min(99, (100 * job.moved) / job.total)
        : 0
      : 100
    : 0;
  const label = (id: number) => report?.labels.get(id) ?? t('bulk.conceptN', { id });
  return (
    <section className="bulk card" aria-labelledby="bulk-title">
      <h2 id="bulk-title">{t('bulk.title')}</h2>
      <form className="inline-form" onSubmit={apply}>
        <Choice
          label={t('bulk.transition')}
          value={chosen.key}
          options={transitions.map((transition) => ({
            value: transition.key,
            label: t('bulk.transitionTo', { name: transition.name, state: stateName(transition.to) }),
          }))}
          onChange={setTransition}
        />
        <fieldset className="radios">
          <legend>{t('bulk.entries')}</legend>
          <label className="check">
            <input
              type="radio"
              name="bulk-scope"
              checked={scope === 'selected'}
              onChange={() => setScope('selected')}
            />
            {t('bulk.selected', { count: selected.length })}
          </label>
          <label className="check">
            <input
              type="radio"
              name="bulk-scope"
              checked={scope === 'all'}
              onChange={() => setScope('all')}
            />
            {t('bulk.all')}
          </label>
        </fieldset>
        <label>
          {chosen.commentRequired ? t('bulk.commentRequired') : t('bulk.comment')}
          <input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={4000} />
        </label>
        <button type="submit" className="primary" disabled={job?.running}>
          {t('bulk.apply')}
        </button>
      </form>
      <ErrorMessage text={error} />
      {job && (
        <div className="stack">
          <Progress.Root className="progress" value={percent} aria-label={t('bulk.progress')}>
            <Progress.Indicator
              className="progress-indicator"
              style={{ transform: `translateX(-${100 - percent}%)` }}
            />
          </Progress.Root>
          <p role="status">
            {job.running
              ? t('bulk.moving', { moved: formatNumber(job.moved) })
              : t('bulk.moved', {
                  count: job.moved,
                  formatted: formatNumber(job.moved),
                  state: stateName(chosen.to),
                })}
          </p>
        </div>
      )}
      {report && report.waiting > 0 && (
        <p>{t('bulk.waiting', { count: report.waiting, formatted: formatNumber(report.waiting) })}</p>
      )}
      {report && (report.moved.length > 0 || report.refused.length > 0 || report.untouched.length > 0) && (
        <table className="results bulk-report">
          <caption>{t('bulk.report')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('bulk.concept')}</th>
              <th scope="col">{t('bulk.language')}</th>
              <th scope="col">{t('bulk.outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {report.moved.map((entry) => (
              <tr key={entryKey(entry)}>
                <td>
                  <a href={`/concepts/${entry.conceptId}`} onClick={onLinkClick}>
                    {label(entry.conceptId)}
                  </a>
                </td>
                <td>{entry.languageCode ?? ''}</td>
                <td>{t('bulk.movedTo', { state: stateName(entry.state) })}</td>
              </tr>
            ))}
            {report.refused.map((entry) => (
              <tr key={`refused ${entryKey(entry)}`}>
                <td>
                  <a href={`/concepts/${entry.conceptId}`} onClick={onLinkClick}>
                    {label(entry.conceptId)}
                  </a>
                </td>
                <td>{entry.languageCode ?? ''}</td>
                <td>{t('bulk.notMoved', { reason: entry.reason })}</td>
              </tr>
            ))}
            {report.untouched.map((id) => (
              <tr key={`untouched ${id}`}>
                <td>
                  <a href={`/concepts/${id}`} onClick={onLinkClick}>
                    {label(id)}
                  </a>
                </td>
                <td />
                <td>{report.waiting > 0 ? t('bulk.untouchedWaiting') : t('bulk.untouched')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
