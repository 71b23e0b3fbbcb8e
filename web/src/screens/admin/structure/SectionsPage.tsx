import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { forgetCachedData, useLoaded } from '../../../data';
import { formatNumber } from '../../../i18n';
import type { AdminPageProps } from '../admin-page';
import { DictionaryFrame } from './DictionaryFrame';
import { AddNamed, NamedItems } from './NamedItems';

/** /admin/dictionaries/:id/sections: the parts of a dictionary that permissions and views can differ by. */
export default function SectionsPage({ params }: AdminPageProps) {
  return (
    <DictionaryFrame id={params.id ?? ''} tab="sections">
      {({ dictionary, canEdit }) => <Sections dictionaryId={dictionary.id} canEdit={canEdit} />}
    </DictionaryFrame>
  );
}

function Sections({ dictionaryId, canEdit }: { dictionaryId: number; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const loaded = useLoaded(
    () =>
      trpc.sections.list
        .query({
          'dictionary-id': dictionaryId,
          format: 'FULL',
          size: 500,
          page: 0,
          'include-deleted': false,
        })
        .then((page) => page.content),
    String(dictionaryId),
  );
  const changed = () => {
    forgetCachedData();
    loaded.reload();
  };
  return (
    <>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <NamedItems
          kind="sections"
          items={loaded.data}
          canEdit={canEdit}
          details={(section) => (
            <p>
              {t('concepts', {
                count: section.numberOfConcepts ?? 0,
                formatted: formatNumber(section.numberOfConcepts ?? 0),
              })}
            </p>
          )}
          undeletable={(section) => (section.deletable === false ? t('sections.undeletable') : null)}
          rename={(section, name, version) =>
            trpc.sections.patch.mutate({ id: section.id, version, name, format: 'ID' })
          }
          remove={(section) => trpc.sections.delete.mutate({ id: section.id })}
          latestVersion={async (section) =>
            (await trpc.sections.get.query({ id: section.id, format: 'FULL', 'include-deleted': false }))
              .version
          }
          onChanged={changed}
        />
      )}
      {canEdit && (
        <AddNamed
          kind="sections"
          create={(name) => trpc.sections.create.mutate({ name, dictionaryId, format: 'ID' })}
          onCreated={changed}
        />
      )}
    </>
  );
}
