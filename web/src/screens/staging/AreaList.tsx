import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Check, Choice, dictionaryOptions, ErrorMessage } from '../../components/controls';
import { type Dictionary, loadDictionaries, useLoaded } from '../../data';
import { formatNumber } from '../../i18n';
import { navigate, onLinkClick, withQuery } from '../../routes';
import { useRights } from '../admin/structure/rights';
import { TableScroll } from '../projects/TableScroll';
import type { StagingArea } from './staging-data';
import { areaHref } from './staging-routes';

/** All areas of the dictionaries, read side by side (one page of 100 per dictionary). */
function loadAreas(dictionaries: Dictionary[]): Promise<StagingArea[]> {
  return Promise.all(
    dictionaries.map((d) =>
      trpc.staging.listAreas
        .query({ dictionaryId: d.id, page: 0, size: 100 })
        .then((page) => page.content)
        .catch(() => [] as StagingArea[]),
    ),
  ).then((lists) => lists.flat());
}

/**
 * /staging?d=: the staging areas the caller may use, with their pending, accepted and rejected counts
 * (docs/staging.md). A dictionary's administrators create, rename, describe and delete its areas here.
 */
export function AreaList({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('staging');
  const dictionaryId = Number(query.get('d')) || undefined;
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const rights = useRights();
  const shown = (dictionaries.data ?? []).filter((d) => dictionaryId === undefined || d.id === dictionaryId);
  const areas = useLoaded(
    () => (dictionaries.data ? loadAreas(shown) : Promise.resolve([])),
    `staging areas ${dictionaries.data ? shown.map((d) => d.id).join(',') : 'waiting'}`,
  );
  const administered = (dictionaries.data ?? []).filter((d) => rights?.administers(d));
  const [editing, setEditing] = useState<number | null>(null);

  if (dictionaries.error) return <p role="alert">{dictionaries.error.message}</p>;
  const list = areas.data ?? [];
  return (
    <div className="staging-page stack">
      <h1>{t('areas.title')}</h1>
      <p className="hint">{t('areas.intro')}</p>
      <div className="staging-filters">
        <Choice
          label={t('areas.dictionary')}
          value={dictionaryId ?? ''}
          empty={t('areas.allDictionaries')}
          options={dictionaryOptions(dictionaries.data ?? [])}
          onChange={(value) => navigate(withQuery('/staging', { d: value }), { replace: true })}
        />
      </div>
      <ErrorMessage text={areas.error?.message} />
      {(!dictionaries.data || areas.loading) && !areas.data && <p role="status">{t('common:loading')}</p>}
      {areas.data && (
        <p role="status" className="result-count">
          {list.length === 0
            ? t('areas.none')
            : t('areas.count', { count: list.length, formatted: formatNumber(list.length) })}
        </p>
      )}
      {list.length > 0 && (
        <TableScroll label={t('areas.title')}>
          <table className="results staging-areas">
            <thead>
              <tr>
                <th scope="col">{t('areas.name')}</th>
                <th scope="col">{t('areas.dictionary')}</th>
                <th scope="col">{t('areas.pending')}</th>
                <th scope="col">{t('areas.accepted')}</th>
                <th scope="col">{t('areas.rejected')}</th>
                <th scope="col">{t('areas.openToReaders')}</th>
                <th scope="col">{t('areas.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((area) => (
                <tr key={area.id}>
                  <td>
                    <a href={areaHref(area.id)} onClick={onLinkClick}>
                      {area.name}
                    </a>
                    {area.description && <div className="hint prewrap">{area.description}</div>}
                  </td>
                  <td>{area.dictionaryName}</td>
                  <td>{formatNumber(area.counts.pending)}</td>
                  <td>{formatNumber(area.counts.accepted)}</td>
                  <td>{formatNumber(area.counts.rejected)}</td>
                  <td>{area.openToReaders ? t('yes') : t('no')}</td>
                  <td>
                    {rights?.administers({ id: area.dictionaryId }) && (
                      <button
                        type="button"
                        aria-expanded={editing === area.id}
                        onClick={() => setEditing(editing === area.id ? null : area.id)}
                      >
                        {t('areas.edit')}
                        <span className="visually-hidden"> {area.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {list.length > 0 && <p className="hint scroll-hint">{t('scrollHint')}</p>}
      {editing !== null && list.some((a) => a.id === editing) && (
        <AreaForm
          key={editing}
          area={list.find((a) => a.id === editing)}
          dictionaries={administered}
          onDone={() => {
            setEditing(null);
            areas.reload();
          }}
        />
      )}
      {administered.length > 0 && (
        <AreaForm dictionaries={administered} chosen={dictionaryId} onDone={areas.reload} />
      )}
    </div>
  );
}

/** A new area (no `area`), or an area's name, description and openness changed; its deletion. */
function AreaForm(props: {
  area?: StagingArea;
  dictionaries: Dictionary[];
  chosen?: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('staging');
  const { area } = props;
  const [dictionaryId, setDictionaryId] = useState(String(props.chosen ?? props.dictionaries[0]?.id ?? ''));
  const [name, setName] = useState(area?.name ?? '');
  const [description, setDescription] = useState(area?.description ?? '');
  const [open, setOpen] = useState(area?.openToReaders ?? false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const title = area ? t('areas.editTitle', { name: area.name }) : t('areas.newTitle');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      if (area) {
        await trpc.staging.updateArea.mutate({
          id: area.id,
          version: area.version,
          name,
          description: description.trim() || null,
          openToReaders: open,
        });
      } else {
        await trpc.staging.createArea.mutate({
          dictionaryId: Number(dictionaryId),
          name,
          description: description.trim() || null,
          openToReaders: open,
        });
        setName('');
        setDescription('');
        setOpen(false);
        setNotice(t('areas.created', { name }));
      }
      props.onDone();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  async function remove() {
    if (!area) return;
    setError(null);
    try {
      await trpc.staging.deleteArea.mutate({ id: area.id });
      props.onDone();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  return (
    <form className="card stack staging-area-form" aria-label={title} onSubmit={(e) => void submit(e)}>
      <h2>{title}</h2>
      {!area && (
        <Choice
          label={t('areas.dictionary')}
          value={dictionaryId}
          options={dictionaryOptions(props.dictionaries)}
          onChange={setDictionaryId}
        />
      )}
      <label>
        {t('areas.name')}
        <input value={name} required maxLength={255} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t('areas.description')}
        <textarea value={description} maxLength={4000} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <Check label={t('areas.openToReadersLong')} checked={open} onChange={setOpen} />
      <div className="actions">
        <button type="submit" className="primary" disabled={!name.trim()}>
          {area ? t('areas.save') : t('areas.create')}
        </button>
        {area && !confirming && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            {t('areas.delete')}
          </button>
        )}
      </div>
      {area && confirming && (
        <div className="actions">
          <p>{t('areas.deleteAsk', { name: area.name })}</p>
          <button type="button" className="danger" onClick={() => void remove()}>
            {t('areas.deleteConfirm')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('common:cancel')}
          </button>
        </div>
      )}
      <ErrorMessage text={error} />
      {notice && <p role="status">{notice}</p>}
    </form>
  );
}
