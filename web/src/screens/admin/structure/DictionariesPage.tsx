import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './structure.css';
import { trpc } from '../../../api';
import { Check, ErrorMessage } from '../../../components/controls';
import { forgetCachedData, useLoaded } from '../../../data';
import { formatNumber } from '../../../i18n';
import { navigate, onLinkClick, withQuery } from '../../../routes';
import { loadDictionary, saveStructure, structureOf } from './dictionary-data';
import { ConfirmButton, ConflictDialog, formProblems, jobDone, Problems, useWrite } from './kit';
import { type Rights, useRights } from './rights';

type Listed = Awaited<ReturnType<typeof trpc.dictionaries.list.query>>['content'][number];

const listDictionaries = () =>
  trpc.dictionaries.list
    .query({ page: 0, size: 500, format: 'FULL', 'include-deleted': false })
    .then((page) => page.content);

/** /admin/dictionaries: the dictionaries the caller administers; create, rename, copy, empty, delete. */
export default function DictionariesPage() {
  const { t } = useTranslation('structure');
  const rights = useRights();
  const loaded = useLoaded(listDictionaries, 'dictionaries');
  const [done, setDone] = useState('');
  const changed = (message: string) => {
    forgetCachedData();
    setDone(message);
    loaded.reload();
  };
  const list = (loaded.data ?? []).filter((dictionary) => rights?.administers(dictionary));
  return (
    <section className="structure-page" aria-labelledby="dictionaries-title">
      <h1 id="dictionaries-title">{t('dictionaries.title')}</h1>
      {rights?.admin && <CreateDictionary />}
      <p role="status">{done}</p>
      <ErrorMessage text={loaded.error?.message} />
      {!rights || (loaded.loading && !loaded.data) ? (
        <p role="status">{t('loading')}</p>
      ) : list.length === 0 ? (
        <p>{t('dictionaries.none')}</p>
      ) : (
        <ul className="structure-list" aria-label={t('dictionaries.title')}>
          {list.map((dictionary) => (
            <DictionaryItem key={dictionary.id} dictionary={dictionary} rights={rights} onChanged={changed} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CreateDictionary() {
  const { t } = useTranslation('structure');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const write = useWrite();
  const problems = formProblems(write.problem, 'create-dictionary');
  async function create(event: React.FormEvent) {
    event.preventDefault();
    let id = 0;
    const ok = await write.run(async () => {
      id = (await trpc.dictionaries.create.mutate({ format: 'ID', name, description: description || null }))
        .id;
    });
    if (ok) {
      forgetCachedData();
      navigate(`/admin/dictionaries/${id}/languages`);
    }
  }
  return (
    <form className="card structure-form" onSubmit={create} aria-labelledby="create-dictionary-title">
      <h2 id="create-dictionary-title">{t('dictionaries.create')}</h2>
      <label>
        {t('dictionaries.name')}
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={255}
          aria-invalid={problems.describedBy('name') ? true : undefined}
          aria-describedby={problems.describedBy('name')}
        />
      </label>
      <Problems id={problems.id('name')} messages={problems.at('name')} />
      <label>
        {t('dictionaries.description')}
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} maxLength={4000} />
      </label>
      <Problems id={problems.id('description')} messages={problems.at('description')} />
      <div className="actions">
        <button type="submit" className="primary" disabled={write.busy}>
          {t('dictionaries.createButton')}
        </button>
      </div>
      <Problems id="create-dictionary-problems" messages={problems.general} />
    </form>
  );
}

function DictionaryItem(props: { dictionary: Listed; rights: Rights; onChanged: (message: string) => void }) {
  const { t } = useTranslation('structure');
  const { dictionary, rights, onChanged } = props;
  const [mode, setMode] = useState<'view' | 'rename' | 'copy'>('view');
  const write = useWrite();
  const name = dictionary.name ?? '';
  const languages = (dictionary.languages ?? []).filter((language) => !language.deleted);
  const act = async (action: () => Promise<unknown>, message: string) => {
    if (await write.run(action)) onChanged(message);
  };
  return (
    <li className="card" aria-labelledby={`dictionary-${dictionary.id}`}>
      <h2 id={`dictionary-${dictionary.id}`}>
        <a href={`/admin/dictionaries/${dictionary.id}/languages`} onClick={onLinkClick}>
          {name}
        </a>
      </h2>
      <p>
        {t('dictionaries.concepts', {
          count: dictionary.concepts ?? 0,
          formatted: formatNumber(dictionary.concepts ?? 0),
        })}
        {' · '}
        {languages.length
          ? languages.map((language) => language.name).join(', ')
          : t('dictionaries.noLanguages')}
      </p>
      {dictionary.description && <p>{dictionary.description}</p>}
      <p>
        <a href={withQuery('/staging', { d: dictionary.id })} onClick={onLinkClick}>
          {t('dictionaries.staging', { name })}
        </a>
      </p>
      {mode === 'rename' && (
        <RenameForm
          dictionary={dictionary}
          onDone={(renamed) => {
            setMode('view');
            if (renamed) onChanged(t('dictionaries.renamed', { name: renamed }));
          }}
        />
      )}
      {mode === 'copy' && (
        <CopyForm
          dictionary={dictionary}
          onDone={(copied) => {
            setMode('view');
            if (copied) onChanged(t('dictionaries.copied', { name: copied }));
          }}
        />
      )}
      {mode === 'view' && (
        <div className="actions">
          <button type="button" onClick={() => setMode('rename')}>
            {t('dictionaries.rename')}
          </button>
          {rights.admin && (
            <button type="button" onClick={() => setMode('copy')}>
              {t('dictionaries.copy')}
            </button>
          )}
          <ConfirmButton
            label={t('dictionaries.empty')}
            question={t('dictionaries.emptyQuestion', { name })}
            confirm={t('dictionaries.emptyConfirm')}
            danger
            disabled={write.busy}
            onConfirm={() =>
              void act(
                async () => jobDone(await trpc.dictionaries.empty.mutate({ id: dictionary.id })),
                t('dictionaries.emptied', { name }),
              )
            }
          />
          <ConfirmButton
            label={t('dictionaries.delete')}
            question={t('dictionaries.deleteQuestion', { name })}
            confirm={t('dictionaries.deleteConfirm')}
            danger
            disabled={write.busy}
            onConfirm={() =>
              void act(
                () => trpc.dictionaries.delete.mutate({ id: dictionary.id }),
                t('dictionaries.deleted', { name }),
              )
            }
          />
        </div>
      )}
      {write.busy && <p role="status">{t('working')}</p>}
      <Problems
        id={`dictionary-${dictionary.id}-problems`}
        messages={formProblems(write.problem, 'x').general}
      />
    </li>
  );
}

/** Name and description; the update carries the rest of the structure unchanged, at the listed version. */
function RenameForm(props: { dictionary: Listed; onDone: (renamed: string | null) => void }) {
  const { t } = useTranslation('structure');
  const { dictionary } = props;
  const [name, setName] = useState(dictionary.name ?? '');
  const [description, setDescription] = useState(dictionary.description ?? '');
  const write = useWrite();
  const scope = `rename-${dictionary.id}`;
  const problems = formProblems(write.problem, scope);
  const save = async (version?: number) => {
    const ok = await write.run(async () => {
      const full = await loadDictionary(dictionary.id);
      const structure = { ...structureOf(full), name, description: description || null };
      await saveStructure(full, structure, version ?? dictionary.version);
    });
    if (ok) props.onDone(name);
  };
  return (
    <form
      className="structure-form"
      aria-label={t('dictionaries.renameTitle', { name: dictionary.name })}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label>
        {t('dictionaries.name')}
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={255}
          aria-invalid={problems.describedBy('name') ? true : undefined}
          aria-describedby={problems.describedBy('name')}
        />
      </label>
      <Problems id={problems.id('name')} messages={problems.at('name')} />
      <label>
        {t('dictionaries.description')}
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} maxLength={4000} />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={write.busy}>
          {t('save')}
        </button>
        <button type="button" onClick={() => props.onDone(null)}>
          {t('cancel')}
        </button>
      </div>
      <Problems id={`${scope}-problems`} messages={problems.general} />
      {write.conflict && (
        <ConflictDialog
          problem={write.conflict}
          onClose={write.clear}
          onTakeTheirs={() => props.onDone(null)}
          onOverwrite={async () => {
            const latest = await loadDictionary(dictionary.id);
            await save(latest.version);
          }}
        />
      )}
    </form>
  );
}

function CopyForm(props: { dictionary: Listed; onDone: (copied: string | null) => void }) {
  const { t } = useTranslation('structure');
  const { dictionary } = props;
  const [name, setName] = useState(t('dictionaries.copyName', { name: dictionary.name }));
  const [withData, setWithData] = useState(false);
  const write = useWrite();
  const scope = `copy-${dictionary.id}`;
  const problems = formProblems(write.problem, scope);
  async function copy(event: React.FormEvent) {
    event.preventDefault();
    const ok = await write.run(async () =>
      jobDone(await trpc.dictionaries.copy.mutate({ id: dictionary.id, name, 'copy-data': withData })),
    );
    if (ok) props.onDone(name);
  }
  return (
    <form
      className="structure-form"
      aria-label={t('dictionaries.copyTitle', { name: dictionary.name })}
      onSubmit={copy}
    >
      <label>
        {t('dictionaries.copyNameLabel')}
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={255}
          aria-invalid={problems.describedBy('name') ? true : undefined}
          aria-describedby={problems.describedBy('name')}
        />
      </label>
      <Problems id={problems.id('name')} messages={problems.at('name')} />
      <Check label={t('dictionaries.copyData')} checked={withData} onChange={setWithData} />
      <div className="actions">
        <button type="submit" className="primary" disabled={write.busy}>
          {t('dictionaries.copyButton')}
        </button>
        <button type="button" onClick={() => props.onDone(null)}>
          {t('cancel')}
        </button>
      </div>
      {write.busy && <p role="status">{t('working')}</p>}
      <Problems id={`${scope}-problems`} messages={problems.general} />
    </form>
  );
}
