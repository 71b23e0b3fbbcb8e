import * as Tabs from '@radix-ui/react-tabs';
import { useEffect, useState } from 'react';
import { problemOf, trpc } from '../api';
import { CommentsPanel } from '../components/CommentsPanel';
import { ConceptEditor } from '../components/ConceptEditor';
import { ConceptView } from '../components/ConceptView';
import { ConflictDialog } from '../components/ConflictDialog';
import { bodyOf, type Draft, draftOf } from '../components/concept-draft';
import { conceptLabel } from '../components/concept-text';
import { CheckList, languageOptions } from '../components/controls';
import { DeleteConcept } from '../components/DeleteConcept';
import { type EditorProblems, editorProblemsOf, noProblems } from '../components/editor-problems';
import { HistoryPanel } from '../components/HistoryPanel';
import { WorkflowPanel } from '../components/WorkflowPanel';
import { type Concept, loadDictionaries, loadSearchSettings, useLoaded } from '../data';
import { codeList, navigate, withQuery } from '../routes';
import { getSession } from '../session';

const LOCK_RENEW_MS = 4 * 60 * 1000;

function LockNote({ lock }: { lock: Concept['lock'] }) {
  if (!lock) return null;
  const until = new Date(lock.expirationTime).toLocaleTimeString();
  return (
    <p className="lock-note" role="status">
      {lock.mine
        ? `You hold the edit lock until ${until}.`
        : `${lock.fullName || lock.name || 'Another user'} is editing this concept (locked until ${until}).`}
    </p>
  );
}

export default function ConceptScreen({ id, query }: { id: number; query: URLSearchParams }) {
  const concept = useLoaded(
    () => trpc.concepts.get.query({ id, format: 'FULL', 'with-comments': false, 'include-deleted': false }),
    `concept ${id}`,
  );
  const context = useLoaded(() => Promise.all([loadDictionaries(), loadSearchSettings()]), 'context');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [baseVersion, setBaseVersion] = useState(0);
  const [problems, setProblems] = useState<EditorProblems>(noProblems);
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ message: string; theirs: Concept } | null>(null);
  const [busy, setBusy] = useState(false);

  // Held while editing: renewed before CONCEPT_LOCK_TIMEOUT runs out.
  const editing = draft !== null;
  useEffect(() => {
    if (!editing) return;
    const timer = setInterval(
      () => void trpc.concepts.acquireLock.mutate({ id }).catch(() => undefined),
      LOCK_RENEW_MS,
    );
    return () => clearInterval(timer);
  }, [editing, id]);

  if (concept.error) return <p role="alert">{concept.error.message}</p>;
  if (!concept.data || !context.data) return <p role="status">Loading…</p>;
  const data = concept.data;
  const [dictionaries, settings] = context.data;
  const dictionary = dictionaries.find((d) => d.id === data.dictionaryId);
  const preferred = settings
    ? [settings.sourceLanguage, ...settings.targetLanguages].filter((c): c is string => !!c)
    : [];
  const available = (dictionary?.languages ?? []).map((l) => l.code);
  const fromUrl = codeList(query.get('langs')).filter((c) => available.includes(c));
  const fromPrefs = preferred.filter((c) => available.includes(c));
  const languages = fromUrl.length ? fromUrl : fromPrefs.length ? fromPrefs : available;
  const tab = query.get('tab') ?? 'terms';
  const setQuery = (changes: Record<string, string>) =>
    navigate(withQuery(`/concepts/${id}`, { langs: languages.join(','), tab, ...changes }), {
      replace: true,
    });
  const guest = getSession()?.guest ?? false;
  const fieldNames = new Map(
    [...(dictionary?.conceptFields ?? []), ...(dictionary?.termFields ?? [])].map((f) => [
      f.oid ?? '',
      f.name,
    ]),
  );

  async function startEditing() {
    setNotice(null);
    try {
      const got = await trpc.concepts.acquireLock.mutate({ id });
      if (!got) setNotice('Someone else holds the edit lock; try again when they are done.');
      else {
        setDraft(draftOf(data));
        setBaseVersion(data.version ?? 0);
        setProblems(noProblems);
      }
    } catch (caught) {
      setNotice(problemOf(caught).message);
    }
    concept.reload();
  }

  async function stopEditing() {
    await trpc.concepts.releaseLock.mutate({ id }).catch(() => undefined);
    setDraft(null);
    setConflict(null);
    concept.reload();
  }

  async function save(version = baseVersion, edit = draft) {
    if (!edit) return;
    setBusy(true);
    setProblems(noProblems);
    try {
      await trpc.concepts.patch.mutate({
        id,
        version,
        format: 'ID',
        'with-comments': false,
        ...bodyOf(edit),
      });
      setNotice('Saved.');
      await stopEditing();
    } catch (caught) {
      const problem = problemOf(caught);
      if (problem.code === 'CONFLICT') {
        const theirs = await trpc.concepts.get.query({
          id,
          format: 'FULL',
          'with-comments': false,
          'include-deleted': false,
        });
        setConflict({ message: problem.message, theirs });
      } else setProblems(editorProblemsOf(problem.message, fieldNames));
    } finally {
      setBusy(false);
    }
  }

  const title = conceptLabel(data, languages);
  return (
    <article aria-labelledby="concept-title">
      <h1 id="concept-title">
        <span className="value">{title}</span> <span className="hint">concept {data.cid}</span>
      </h1>
      <LockNote lock={data.lock} />
      {notice && (
        <p role="status" className="hint">
          {notice}
        </p>
      )}
      {!guest && !draft && (
        <div className="actions">
          <button type="button" className="primary" onClick={() => void startEditing()}>
            Edit
          </button>
          <DeleteConcept
            concept={data}
            label={title}
            onDeleted={() => navigate(withQuery('/search', { d: data.dictionaryId }))}
          />
        </div>
      )}
      {!draft && (
        <WorkflowPanel
          concept={data}
          languageNames={new Map((dictionary?.languages ?? []).map((l) => [l.code, l.name]))}
          onMoved={concept.reload}
        />
      )}
      {draft && dictionary ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <ConceptEditor
            dictionary={dictionary}
            draft={draft}
            problems={problems}
            onChange={setDraft}
            conceptId={id}
            languages={languages}
          />
          <div className="actions" style={{ marginTop: '0.8rem' }}>
            <button type="submit" className="primary" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => void stopEditing()}>
              Cancel and release the lock
            </button>
          </div>
          {conflict && (
            <ConflictDialog
              message={conflict.message}
              mine={draft}
              theirs={conflict.theirs}
              dictionary={dictionary}
              onClose={() => setConflict(null)}
              onOverwrite={() => {
                const version = conflict.theirs.version ?? 0;
                setBaseVersion(version);
                setConflict(null);
                void save(version);
              }}
              onTakeTheirs={() => {
                setDraft(draftOf(conflict.theirs));
                setBaseVersion(conflict.theirs.version ?? 0);
                setConflict(null);
              }}
            />
          )}
        </form>
      ) : (
        <>
          <CheckList
            legend="Languages shown"
            className="pickers"
            options={languageOptions((dictionary?.languages ?? []).filter((l) => !l.deleted))}
            chosen={languages}
            onChange={(codes) => setQuery({ langs: codes.join(',') })}
          />
          <Tabs.Root value={tab} onValueChange={(value) => setQuery({ tab: value })}>
            <Tabs.List className="tabs-list" aria-label="Concept">
              <Tabs.Trigger value="terms">Terms</Tabs.Trigger>
              <Tabs.Trigger value="comments">Comments</Tabs.Trigger>
              <Tabs.Trigger value="history">History</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="terms">
              <ConceptView
                concept={data}
                dictionary={dictionary}
                languages={languages}
                canComment={!guest}
                onChanged={concept.reload}
              />
            </Tabs.Content>
            <Tabs.Content value="comments">
              <CommentsPanel entryId={id} canComment={!guest} />
            </Tabs.Content>
            <Tabs.Content value="history">
              <HistoryPanel
                conceptId={id}
                version={data.version ?? 0}
                dictionary={dictionary}
                onRestored={concept.reload}
              />
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}
    </article>
  );
}
