import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { CheckList, Choice, ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import type { FullDictionary } from './dictionary-data';
import { AddNamed, NamedItems } from './NamedItems';

const VISIBILITIES = ['PRIVATE', 'GROUP', 'PUBLIC'] as const;

/** The dictionary's saved filters: who sees each and what it selects; add one by languages and sections. */
export function FiltersSection({ dictionary, canEdit }: { dictionary: FullDictionary; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const loaded = useLoaded(
    () =>
      trpc.filters.list
        .query({
          'dictionary-id': dictionary.id,
          format: 'FULL',
          size: 500,
          page: 0,
          'include-deleted': false,
        })
        .then((page) => page.content),
    `filters-${dictionary.id}`,
  );
  const [visibility, setVisibility] = useState<(typeof VISIBILITIES)[number]>('PUBLIC');
  const [group, setGroup] = useState('');
  // Groups a filter can be shared with (the client's, without the built-in All users and Guests).
  const groups =
    useLoaded(
      () =>
        canEdit
          ? trpc.groups.list
              .query({
                page: 0,
                size: 500,
                format: 'SHORT',
                'include-deleted': false,
                'include-all': false,
                'include-guest': false,
                'include-private': false,
              })
              .then((page) => page.content)
              .catch(() => [])
          : Promise.resolve([]),
      `groups-${canEdit}`,
    ).data ?? [];
  const [languages, setLanguages] = useState<string[]>([]);
  const [sections, setSections] = useState<string[]>([]);
  const languageOptions = (dictionary.languages ?? [])
    .filter((language) => !language.deleted)
    .map((language) => ({ value: language.code, label: language.name }));
  const sectionOptions = (dictionary.allSections ?? dictionary.sections ?? [])
    .filter((section) => !section.deleted && section.oid)
    .map((section) => ({ value: section.oid as string, label: section.name }));
  const names = new Map([...languageOptions, ...sectionOptions].map((o) => [o.value, o.label]));
  return (
    <section aria-labelledby="filters-title">
      <h2 id="filters-title">{t('filters.title')}</h2>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <NamedItems
          kind="filters"
          items={loaded.data}
          canEdit={canEdit}
          details={(filter) => (
            <p>
              {t(`filters.visibility.${filter.visibility ?? 'PRIVATE'}`)}
              {' · '}
              {[...(filter.criteria?.languages ?? []), ...(filter.criteria?.sectionOids ?? [])]
                .map((key) => names.get(key) ?? key)
                .join(', ') || t('filters.everything')}
            </p>
          )}
          undeletable={(filter) => (filter.editable === false ? t('filters.notYours') : null)}
          rename={(filter, name, version) =>
            trpc.filters.patch.mutate({ id: filter.id, version, name, format: 'ID' })
          }
          remove={(filter) => trpc.filters.delete.mutate({ id: filter.id })}
          latestVersion={async (filter) =>
            (await trpc.filters.get.query({ id: filter.id, format: 'FULL', 'include-deleted': false }))
              .version
          }
          onChanged={loaded.reload}
        />
      )}
      {canEdit && (
        <AddNamed
          kind="filters"
          create={(name) =>
            trpc.filters.create.mutate({
              name,
              dictionaryId: dictionary.id,
              visibility,
              groupId: visibility === 'GROUP' && group ? Number(group) : null,
              criteria: {
                languages,
                sectionOids: sections,
                domainOids: [],
                fieldConditions: [],
                match: 'ALL',
                createdBy: [],
                changedBy: [],
              } as Parameters<typeof trpc.filters.create.mutate>[0]['criteria'],
              format: 'ID',
            })
          }
          onCreated={() => {
            setLanguages([]);
            setSections([]);
            loaded.reload();
          }}
        >
          <Choice
            label={t('filters.who')}
            value={visibility}
            onChange={(value) => setVisibility(value as (typeof VISIBILITIES)[number])}
            options={VISIBILITIES.map((value) => ({ value, label: t(`filters.visibility.${value}`) }))}
          />
          {visibility === 'GROUP' && (
            <Choice
              label={t('filters.group')}
              value={group}
              onChange={setGroup}
              empty={t('filters.chooseGroup')}
              options={groups.map((g) => ({ value: String(g.id), label: g.name ?? String(g.id) }))}
            />
          )}
          <CheckList
            legend={t('filters.languages')}
            options={languageOptions}
            chosen={languages}
            onChange={setLanguages}
          />
          <CheckList
            legend={t('filters.sections')}
            options={sectionOptions}
            chosen={sections}
            onChange={setSections}
          />
        </AddNamed>
      )}
    </section>
  );
}
