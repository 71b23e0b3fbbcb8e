import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './structure.css';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { onLinkClick, withQuery } from '../../../routes';
import {
  type FullDictionary,
  loadDictionary,
  type Structure,
  saveStructure,
  structureOf,
} from './dictionary-data';
import { ExportDefinition } from './ExportDefinition';
import { ConflictDialog, useWrite } from './kit';
import { type Rights, useRights } from './rights';

export const DICTIONARY_TABS = [
  'languages',
  'fields',
  'sections',
  'domains',
  'views',
  'stemming',
  'statistics',
] as const;
export type DictionaryTab = (typeof DICTIONARY_TABS)[number];

/** One dictionary's structure page: its name, the links to its other pages, and the page itself. */
export function DictionaryFrame(props: {
  id: string;
  tab: DictionaryTab;
  children: (context: {
    dictionary: FullDictionary;
    reload: () => void;
    canEdit: boolean;
    rights: Rights;
  }) => ReactNode;
}) {
  const { t } = useTranslation('structure');
  const id = Number(props.id);
  const loaded = useLoaded(() => loadDictionary(id), String(id));
  const rights = useRights();
  const dictionary = loaded.data;
  return (
    <section className="structure-page" aria-labelledby="structure-title">
      <p>
        <a href="/admin/dictionaries" onClick={onLinkClick}>
          {t('dictionaries.title')}
        </a>
      </p>
      <h1 id="structure-title">
        {dictionary
          ? t('frame.title', { name: dictionary.name, page: t(`tabs.${props.tab}`) })
          : t(`tabs.${props.tab}`)}
      </h1>
      <nav aria-label={t('frame.pages')} className="structure-tabs">
        <ul>
          {DICTIONARY_TABS.map((tab) => (
            <li key={tab}>
              <a
                href={`/admin/dictionaries/${id}/${tab}`}
                onClick={onLinkClick}
                aria-current={tab === props.tab ? 'page' : undefined}
              >
                {t(`tabs.${tab}`)}
              </a>
            </li>
          ))}
          <li>
            <a href={withQuery('/staging', { d: id })} onClick={onLinkClick}>
              {t('frame.staging')}
            </a>
          </li>
        </ul>
      </nav>
      <ErrorMessage text={loaded.error?.message} />
      {!dictionary || !rights
        ? !loaded.error && <p role="status">{t('loading')}</p>
        : props.children({
            dictionary,
            reload: loaded.reload,
            canEdit: rights.administers({ id: dictionary.id, oid: dictionary.oid }),
            rights,
          })}
      {dictionary && rights?.administers({ id: dictionary.id, oid: dictionary.oid }) && (
        <ExportDefinition dictionaryId={dictionary.id} />
      )}
    </section>
  );
}

/**
 * An edit of the languages and fields, which the server takes as a whole dictionary update: the draft,
 * its save, and the 409 dialog (save over the other change, or take the saved structure).
 */
export function useStructureDraft(
  dictionary: FullDictionary,
  reload: () => void,
  /** What this page edits: "save my version over it" keeps the rest as the other change left it. */
  part: (keyof Structure)[],
) {
  const [draft, setDraft] = useState<Structure>(() => structureOf(dictionary));
  const [dirty, setDirty] = useState(false);
  const write = useWrite();
  // A reload after a save (or after taking the saved version) starts from what is stored.
  useEffect(() => {
    setDraft(structureOf(dictionary));
    setDirty(false);
  }, [dictionary]);
  const change = (next: (draft: Structure) => Structure) => {
    setDraft(next);
    setDirty(true);
  };
  const save = async () => {
    if (await write.run(() => saveStructure(dictionary, draft))) reload();
  };
  const conflictDialog = write.conflict && (
    <ConflictDialog
      problem={write.conflict}
      onClose={write.clear}
      onTakeTheirs={() => {
        write.clear();
        reload();
      }}
      onOverwrite={async () => {
        if (
          await write.run(async () => {
            const latest = await loadDictionary(dictionary.id);
            const mine = Object.fromEntries(part.map((key) => [key, draft[key]]));
            await saveStructure(latest, { ...structureOf(latest), ...mine }, latest.version);
          })
        )
          reload();
      }}
    />
  );
  return { draft, change, dirty, save, write, conflictDialog };
}
