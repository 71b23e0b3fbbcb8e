import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Choice, ErrorMessage, languageOptions } from '../../components/controls';
import { Pager } from '../../components/Pager';
import { loadDictionaries, useLoaded } from '../../data';
import { formatDate, formatNumber } from '../../i18n';
import { navigate, onLinkClick, withQuery } from '../../routes';
import { TableScroll } from '../projects/TableScroll';
import { type AcceptChoice, AcceptOptions, acceptInput } from './AcceptOptions';
import { SuggestEntry } from './SuggestEntry';
import { STAGED_SOURCES, STAGED_STATUSES, type StagedEntry } from './staging-data';
import { areaHref, decisionsHref, entryHref } from './staging-routes';
import { useWorkflowStates } from './workflow-states';

const PAGE_SIZE = 50;
const TARGETS = ['NEW', 'EXISTING'] as const;

/**
 * /staging/:id?status=&language=&source=&target=&text=&page=: an area's staged entries, filtered on the
 * server (PENDING first), a page at a time. Reviewers select entries (or take every one the filters
 * find) and accept them, in a chosen workflow state where the dictionary has a workflow, or reject them.
 */
export function AreaEntries({ id, query }: { id: number; query: URLSearchParams }) {
  const { t } = useTranslation('staging');
  const status =
    STAGED_STATUSES.find((s) => s === query.get('status')) ??
    (query.get('status') === 'ALL' ? undefined : 'PENDING');
  const source = STAGED_SOURCES.find((s) => s === query.get('source'));
  const target = TARGETS.find((s) => s === query.get('target'));
  const language = query.get('language') || undefined;
  const text = query.get('text') || undefined;
  const page = Math.max(0, Number(query.get('page')) || 0);
  const state = { status: status ?? 'ALL', source, target, language, text, page: page || undefined };
  const go = (changes: Record<string, string | number | undefined>) =>
    navigate(withQuery(areaHref(id), { ...state, page: undefined, ...changes }), { replace: true });
  const filter = { status, source, target, language, text };

  const area = useLoaded(() => trpc.staging.getArea.query({ id }), `staging area ${id}`);
  const list = useLoaded(
    () => trpc.staging.listEntries.query({ id, ...filter, page, size: PAGE_SIZE }),
    `staged entries ${id} ${JSON.stringify(filter)} ${page}`,
  );
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const dictionary = dictionaries.data?.find((d) => d.id === area.data?.dictionaryId);
  const states = useWorkflowStates(area.data?.dictionaryId);
  const [selected, setSelected] = useState<number[]>([]);
  const [typed, setTyped] = useState(text ?? '');
  // The last bulk decision's outcome: kept above the list, which may be empty after it.
  const [outcome, setOutcome] = useState<{ message: string; problems: string[] } | null>(null);
  const reload = () => {
    setSelected([]);
    list.reload();
    area.reload();
  };

  if (area.error)
    return (
      <>
        <h1>{t('areas.title')}</h1>
        <p role="alert">{area.error.message}</p>
      </>
    );
  if (!area.data) return <p role="status">{t('common:loading')}</p>;
  const entries = list.data?.content ?? [];
  const reviewer = area.data.mayReview;
  const pendingShown = entries.filter((e) => e.status === 'PENDING');
  const allChecked = pendingShown.length > 0 && pendingShown.every((e) => selected.includes(e.id));

  return (
    <div className="staging-page stack">
      <p>
        <a href={withQuery('/staging', { d: area.data.dictionaryId })} onClick={onLinkClick}>
          {t('area.back')}
        </a>
      </p>
      <h1>{t('area.title', { name: area.data.name })}</h1>
      <p className="hint">
        {t('area.summary', {
          dictionary: area.data.dictionaryName,
          pending: formatNumber(area.data.counts.pending),
          accepted: formatNumber(area.data.counts.accepted),
          rejected: formatNumber(area.data.counts.rejected),
        })}
      </p>
      {area.data.description && <p className="prewrap">{area.data.description}</p>}
      {reviewer && (
        <ul className="inline-links">
          <li>
            <a href={withQuery('/tbx', { area: id })} onClick={onLinkClick}>
              {t('area.import')}
            </a>
          </li>
          <li>
            <a href={decisionsHref(id)} onClick={onLinkClick}>
              {t('area.history')}
            </a>
          </li>
        </ul>
      )}
      <form
        className="staging-filters"
        aria-label={t('area.filters')}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          go({ text: typed.trim() || undefined });
        }}
      >
        <Choice
          label={t('area.status')}
          value={status ?? 'ALL'}
          options={[
            ...STAGED_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
            { value: 'ALL', label: t('area.anyStatus') },
          ]}
          onChange={(value) => go({ status: value })}
        />
        <Choice
          label={t('area.language')}
          value={language ?? ''}
          empty={t('area.anyLanguage')}
          options={languageOptions((dictionary?.languages ?? []).filter((l) => !l.deleted))}
          onChange={(value) => go({ language: value || undefined })}
        />
        <Choice
          label={t('area.source')}
          value={source ?? ''}
          empty={t('area.anySource')}
          options={STAGED_SOURCES.map((s) => ({ value: s, label: t(`source.${s}`) }))}
          onChange={(value) => go({ source: value || undefined })}
        />
        <Choice
          label={t('area.target')}
          value={target ?? ''}
          empty={t('area.anyTarget')}
          options={TARGETS.map((s) => ({ value: s, label: t(`target.${s}`) }))}
          onChange={(value) => go({ target: value || undefined })}
        />
        <label>
          {t('area.text')}
          <input type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </label>
        <button type="submit">{t('area.find')}</button>
      </form>
      <ErrorMessage text={list.error?.message} />
      {list.data && (
        <p role="status" className="result-count">
          {list.data.totalElements === 0
            ? t('area.none')
            : t('area.count', {
                count: list.data.totalElements,
                formatted: formatNumber(list.data.totalElements),
              })}
        </p>
      )}
      {reviewer &&
        list.data &&
        list.data.totalElements > 0 &&
        status !== 'ACCEPTED' &&
        status !== 'REJECTED' && (
          <BulkDecision
            areaId={id}
            selected={selected}
            matching={list.data.totalElements}
            filter={filter}
            states={states}
            onDone={(message, problems) => {
              setOutcome({ message, problems });
              reload();
            }}
          />
        )}
      {outcome && (
        <div className="bulk-outcome">
          <p role="status">{outcome.message}</p>
          {outcome.problems.length > 0 && (
            <ul className="error">
              {outcome.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {entries.length > 0 && (
        <>
          <TableScroll label={t('area.entries')}>
            <table className="results staged-entries">
              <thead>
                <tr>
                  {reviewer && (
                    <th scope="col">
                      <input
                        type="checkbox"
                        aria-label={t('area.selectAll')}
                        checked={allChecked}
                        disabled={pendingShown.length === 0}
                        onChange={(e) =>
                          setSelected(
                            e.target.checked
                              ? [...new Set([...selected, ...pendingShown.map((x) => x.id)])]
                              : selected.filter((x) => !pendingShown.some((p) => p.id === x)),
                          )
                        }
                      />
                    </th>
                  )}
                  <th scope="col">{t('area.entry')}</th>
                  <th scope="col">{t('area.status')}</th>
                  <th scope="col">{t('area.target')}</th>
                  <th scope="col">{t('area.source')}</th>
                  <th scope="col">{t('area.by')}</th>
                  <th scope="col">{t('area.created')}</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <EntryRow
                    key={entry.id}
                    entry={entry}
                    reviewer={reviewer}
                    checked={selected.includes(entry.id)}
                    onCheck={(checked) =>
                      setSelected(checked ? [...selected, entry.id] : selected.filter((x) => x !== entry.id))
                    }
                  />
                ))}
              </tbody>
            </table>
          </TableScroll>
          <p className="hint scroll-hint">{t('scrollHint')}</p>
        </>
      )}
      {list.data && (
        <Pager
          page={page}
          data={list.data}
          onPage={(to) => go({ page: to })}
          label={t('area.pages')}
          previous={t('area.previous')}
          next={t('area.next')}
          status={t('area.pageOf', { page: page + 1, pages: list.data.totalPages })}
        />
      )}
      <SuggestEntry area={area.data} dictionary={dictionary} onSuggested={reload} />
    </div>
  );
}

function EntryRow(props: {
  entry: StagedEntry;
  reviewer: boolean;
  checked: boolean;
  onCheck: (checked: boolean) => void;
}) {
  const { t } = useTranslation('staging');
  const { entry } = props;
  return (
    <tr>
      {props.reviewer && (
        <td>
          <input
            type="checkbox"
            aria-label={t('area.select', { label: entry.label })}
            checked={props.checked}
            disabled={entry.status !== 'PENDING'}
            onChange={(e) => props.onCheck(e.target.checked)}
          />
        </td>
      )}
      <td>
        <a href={entryHref(entry.id)} onClick={onLinkClick} className="value">
          {entry.label}
        </a>
      </td>
      <td>
        <span className={`badge staged-${entry.status.toLowerCase()}`}>{t(`status.${entry.status}`)}</span>
      </td>
      <td>
        {entry.targetConceptId === null
          ? t('target.NEW')
          : t('entry.conceptN', { id: entry.targetConceptId })}
      </td>
      <td>
        {t(`source.${entry.source}`)}
        {entry.fileName && <span className="hint"> {entry.fileName}</span>}
      </td>
      <td>{entry.createdBy?.name ?? ''}</td>
      <td className="nowrap">{formatDate(entry.created)}</td>
    </tr>
  );
}

/** Accept or reject the selected entries, or every PENDING entry the filters find. */
function BulkDecision(props: {
  areaId: number;
  selected: number[];
  matching: number;
  filter: Record<string, string | undefined>;
  states: { key: string; name: string }[] | undefined;
  onDone: (message: string, problems: string[]) => void;
}) {
  const { t } = useTranslation('staging');
  const [scope, setScope] = useState<'selected' | 'all'>('selected');
  const [choice, setChoice] = useState<AcceptChoice>({ merge: '', workflowState: '' });
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { areaId, selected } = props;
  const chosen = scope === 'selected' ? selected.length : props.matching;
  const target = () =>
    scope === 'selected'
      ? { ids: selected }
      : { filter: { ...props.filter, status: 'PENDING' as const } as never };

  async function run(accept: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (accept) {
        const answer = await trpc.staging.acceptEntries.mutate({
          id: areaId,
          ...target(),
          ...acceptInput(choice),
        });
        props.onDone(
          t('bulk.accepted', {
            accepted: formatNumber(answer.accepted),
            skipped: formatNumber(answer.skipped),
          }),
          answer.errors.map((e) => e.message),
        );
      } else {
        const answer = await trpc.staging.rejectEntries.mutate({
          id: areaId,
          ...target(),
          reason: reason.trim() || undefined,
        });
        props.onDone(
          t('bulk.rejected', {
            rejected: formatNumber(answer.rejected),
            skipped: formatNumber(answer.skipped),
          }),
          [],
        );
      }
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="card bulk-decision">
      <legend>{t('bulk.title')}</legend>
      <fieldset className="radios">
        <legend className="visually-hidden">{t('bulk.scope')}</legend>
        <label className="check">
          <input
            type="radio"
            name="bulk-scope"
            checked={scope === 'selected'}
            onChange={() => setScope('selected')}
          />
          {t('bulk.selected', { count: selected.length, formatted: formatNumber(selected.length) })}
        </label>
        <label className="check">
          <input type="radio" name="bulk-scope" checked={scope === 'all'} onChange={() => setScope('all')} />
          {t('bulk.all', { count: props.matching, formatted: formatNumber(props.matching) })}
        </label>
      </fieldset>
      <div className="form-row">
        <AcceptOptions value={choice} onChange={setChoice} states={props.states} />
        <button
          type="button"
          className="primary"
          disabled={busy || chosen === 0}
          onClick={() => void run(true)}
        >
          {t('bulk.accept')}
        </button>
      </div>
      <div className="form-row">
        <label>
          {t('bulk.reason')}
          <input value={reason} maxLength={4000} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button
          type="button"
          className="danger"
          disabled={busy || chosen === 0}
          onClick={() => void run(false)}
        >
          {t('bulk.reject')}
        </button>
      </div>
      <ErrorMessage text={error} />
    </fieldset>
  );
}
