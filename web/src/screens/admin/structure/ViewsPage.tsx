import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { CheckList, ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import type { AdminPageProps } from '../admin-page';
import { DictionaryFrame } from './DictionaryFrame';
import type { FullDictionary } from './dictionary-data';
import { FiltersSection } from './FiltersSection';
import { formProblems, Problems, useWrite } from './kit';
import { AddNamed, NamedItems } from './NamedItems';

type View = Awaited<ReturnType<typeof trpc.views.list.query>>['content'][number];

/** /admin/dictionaries/:id/views: which fields a view shows, and the dictionary's saved filters. */
export default function ViewsPage({ params }: AdminPageProps) {
  return (
    <DictionaryFrame id={params.id ?? ''} tab="views">
      {({ dictionary, canEdit }) => (
        <>
          <Views dictionary={dictionary} canEdit={canEdit} />
          <FiltersSection dictionary={dictionary} canEdit={canEdit} />
        </>
      )}
    </DictionaryFrame>
  );
}

/** The fields a view can show: the dictionary's own fields, then the system attributes by category. */
function fieldOptions(dictionary: FullDictionary, system: (key: string) => string) {
  const own = [...(dictionary.conceptFields ?? []), ...(dictionary.termFields ?? [])]
    .filter((field) => !field.deleted && field.oid)
    .map((field) => ({ value: field.oid as string, label: field.name }));
  const attributes = ['TERM', 'LANG', 'DOM', 'CREBY', 'CREDATE', 'CHGBY', 'CHGDATE'].map((key) => ({
    value: key,
    label: system(key),
  }));
  return [...own, ...attributes];
}

function Views({ dictionary, canEdit }: { dictionary: FullDictionary; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const loaded = useLoaded(
    () =>
      trpc.views.list
        .query({
          'dictionary-id': dictionary.id,
          format: 'FULL',
          size: 500,
          page: 0,
          'include-deleted': false,
        })
        .then((page) => page.content),
    `views-${dictionary.id}`,
  );
  const options = fieldOptions(dictionary, (key) => t(`views.system.${key}`));
  const [fields, setFields] = useState<string[]>([]);
  return (
    <section aria-labelledby="views-title">
      <h2 id="views-title">{t('views.title')}</h2>
      <p className="hint">{t('views.hint')}</p>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <NamedItems
          kind="views"
          items={loaded.data}
          canEdit={canEdit}
          details={(view) => (
            <ViewFields view={view} options={options} canEdit={canEdit} onSaved={loaded.reload} />
          )}
          undeletable={(view) => (view.inUse ? (view.inUseMessage ?? t('views.inUse')) : null)}
          rename={(view, name, version) =>
            trpc.views.patch.mutate({ id: view.id, version, name, format: 'ID' })
          }
          remove={(view) => trpc.views.delete.mutate({ id: view.id })}
          latestVersion={async (view) =>
            (await trpc.views.get.query({ id: view.id, format: 'FULL', 'include-deleted': false })).version
          }
          onChanged={loaded.reload}
        />
      )}
      {canEdit && (
        <AddNamed
          kind="views"
          create={(name) =>
            trpc.views.create.mutate({ name, dictionaryId: dictionary.id, fields, format: 'ID' })
          }
          onCreated={() => {
            setFields([]);
            loaded.reload();
          }}
        >
          <CheckList
            legend={t('views.fields')}
            options={options}
            chosen={fields}
            onChange={setFields}
            className="check-columns"
          />
        </AddNamed>
      )}
    </section>
  );
}

/** The fields of one view, changed and saved at its version (a stale one answers 409, shown beside Save). */
function ViewFields(props: {
  view: View;
  options: { value: string; label: string }[];
  canEdit: boolean;
  onSaved: () => void;
}) {
  const { t } = useTranslation('structure');
  const { view } = props;
  const [fields, setFields] = useState<string[]>(view.fields ?? []);
  const write = useWrite();
  const scope = `view-${view.id}-fields`;
  const problems = formProblems(write.problem, scope);
  const shown = props.options.filter((option) => (view.fields ?? []).includes(option.value));
  if (!props.canEdit) {
    return <p>{shown.map((option) => option.label).join(', ') || t('views.noFields')}</p>;
  }
  const changed = fields.join() !== (view.fields ?? []).join();
  return (
    <>
      <CheckList
        legend={t('views.fieldsOf', { name: view.name })}
        options={props.options}
        chosen={fields}
        onChange={setFields}
        className="check-columns"
        describedBy={problems.describedBy('fields')}
      />
      <Problems id={problems.id('fields')} messages={problems.at('fields')} />
      <div className="actions">
        <button
          type="button"
          disabled={!changed || write.busy}
          onClick={() =>
            void write
              .run(() =>
                trpc.views.patch.mutate({ id: view.id, version: view.version, fields, format: 'ID' }),
              )
              .then((ok) => ok && props.onSaved())
          }
        >
          {t('views.saveFields', { name: view.name })}
        </button>
      </div>
      <Problems
        id={`${scope}-problems`}
        messages={write.conflict ? [t('views.conflict')] : problems.general}
      />
    </>
  );
}
