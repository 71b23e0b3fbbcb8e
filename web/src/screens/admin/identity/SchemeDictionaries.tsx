import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formProblems, Problems, useWrite } from '../admin-forms';
import { loadDictionary, saveStructure, structureOf } from '../structure/dictionary-data';

/**
 * Which dictionaries a permission scheme governs: a dictionary holds one scheme (permissionSchemeId), so
 * ticking one here moves it to this scheme and unticking leaves it with none (named users read).
 */
export function SchemeDictionaries({ schemeId }: { schemeId: number }) {
  const { t } = useTranslation('admin');
  const dictionaries = useLoaded(
    () =>
      trpc.dictionaries.list
        .query({ page: 0, size: 500, format: 'FULL', 'include-deleted': false })
        .then((page) => page.content),
    String(schemeId),
  );
  const write = useWrite();
  const problems = formProblems(write.problem, 'scheme-dictionaries');

  async function apply(id: number, on: boolean) {
    const ok = await write.run(async () => {
      // Read afresh: an update replaces the whole structure, so it must carry the latest one.
      const dictionary = await loadDictionary(id);
      await saveStructure(
        { ...dictionary, permissionSchemeId: on ? schemeId : null },
        structureOf(dictionary),
      );
    });
    if (ok) dictionaries.reload();
  }

  return (
    <fieldset aria-describedby={problems.general.length ? 'scheme-dictionaries-general' : undefined}>
      <legend>{t('schemes.dictionaries')}</legend>
      <ErrorMessage text={dictionaries.error?.message} />
      {dictionaries.data?.length === 0 && <p>{t('schemes.noDictionaries')}</p>}
      <div className="admin-checks">
        {dictionaries.data?.map((dictionary) => (
          <label key={dictionary.id} className="check">
            <input
              type="checkbox"
              disabled={write.busy}
              checked={dictionary.permissionSchemeId === schemeId}
              onChange={(event) => void apply(dictionary.id, event.target.checked)}
            />
            {dictionary.name}
          </label>
        ))}
      </div>
      <Problems
        id="scheme-dictionaries-general"
        messages={[...problems.general, ...(write.conflict ? [write.conflict.message] : [])]}
      />
    </fieldset>
  );
}
