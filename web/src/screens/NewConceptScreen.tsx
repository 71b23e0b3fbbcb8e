import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { ConceptEditor } from '../components/ConceptEditor';
import { bodyOf, type Draft, emptyDraft } from '../components/concept-draft';
import { Choice, dictionaryOptions } from '../components/controls';
import { sectionsWhere, useDictionaryRights } from '../components/dictionary-rights';
import { type EditorProblems, editorProblemsOf, noProblems } from '../components/editor-problems';
import { SaveProblems } from '../components/SaveProblems';
import { loadDictionaries, useLoaded } from '../data';
import { idList, navigate, withQuery } from '../routes';

/**
 * A new concept in the dictionary of the URL (`d`), with one empty term to start from. Only dictionaries
 * and sections where the caller holds CONCEPT_CREATE are offered; the server still decides.
 */
export default function NewConceptScreen({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('concept');
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [problems, setProblems] = useState<EditorProblems>(noProblems);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const rights = useDictionaryRights(dictionaries.data ?? []);
  if (dictionaries.error) return <p role="alert">{dictionaries.error.message}</p>;
  if (!dictionaries.data || !rights) return <p role="status">{t('common:loading')}</p>;
  const list = dictionaries.data.flatMap((readable) => {
    const sections = sectionsWhere(readable, rights.get(readable.id), 'CONCEPT_CREATE');
    return sections.length ? [{ ...readable, sections }] : [];
  });
  const dictionary = list.find((d) => d.id === idList(query.get('d'))[0]) ?? list[0];
  if (!dictionary) {
    // Opened by URL without a dictionary to create in: the screen still says what it is.
    return (
      <section aria-labelledby="new-title">
        <h1 id="new-title">{t('new.title')}</h1>
        <p>{t('new.noDictionary')}</p>
      </section>
    );
  }
  const current: Draft =
    draft ?? emptyDraft(dictionary.sections?.[0]?.oid ?? '', dictionary.languages?.[0]?.code ?? 'eng');
  const fieldNames = new Map(
    [...(dictionary.conceptFields ?? []), ...(dictionary.termFields ?? [])].map((f) => [f.oid ?? '', f.name]),
  );

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblems(noProblems);
    try {
      const created = await trpc.concepts.create.mutate({
        dictionaryId: dictionary!.id,
        format: 'ID',
        'with-comments': false,
        ...bodyOf(current),
      });
      navigate(`/concepts/${created.id}`);
    } catch (caught) {
      setProblems(editorProblemsOf(problemOf(caught).message, fieldNames));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={form} onSubmit={create} aria-labelledby="new-title">
      <h1 id="new-title">{t('new.title')}</h1>
      <Choice
        label={t('new.dictionary')}
        value={dictionary.id}
        options={dictionaryOptions(list)}
        onChange={(id) => {
          setDraft(null);
          navigate(withQuery('/concepts/new', { d: id }), { replace: true });
        }}
      />
      <ConceptEditor
        key={dictionary.id}
        dictionary={dictionary}
        draft={current}
        problems={problems}
        onChange={setDraft}
      />
      <div className="actions" style={{ marginTop: '0.8rem' }}>
        <button type="submit" className="primary" disabled={busy}>
          {t('new.create')}
        </button>
      </div>
      <SaveProblems problems={problems} form={form} />
    </form>
  );
}
