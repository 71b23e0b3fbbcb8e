import * as Tabs from '@radix-ui/react-tabs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { CommentsPanel } from '../components/CommentsPanel';
import { ConceptEditor } from '../components/ConceptEditor';
import { ConceptView } from '../components/ConceptView';
import { ConflictDialog } from '../components/ConflictDialog';
import { bodyOf, type Draft, draftOf } from '../components/concept-draft';
import { conceptRights } from '../components/concept-rights';
import { conceptLabel } from '../components/concept-text';
import { CheckList, languageOptions } from '../components/controls';
import { DeleteConcept } from '../components/DeleteConcept';
import { type EditorProblems, editorProblemsOf, noProblems } from '../components/editor-problems';
import { HistoryPanel } from '../components/HistoryPanel';
import { SaveProblems } from '../components/SaveProblems';
import { WorkflowPanel } from '../components/WorkflowPanel';
import { type Concept, loadDictionaries, loadSearchSettings, useLoaded } from '../data';
import { SendFeedback } from '../feedback/SendFeedback';
import { formatTime } from '../i18n';
import { ConceptChangeBanner, useConceptChanges } from '../live/ConceptChangeBanner';
import { codeList, navigate, withQuery } from '../routes';
import { getSession } from '../session';
import { forgetDraft, type StoredDraft, storedDraft } from '../work/draft-store';
import { DraftOffer, isOwnLockElsewhere, OwnLockNote } from '../work/EditNotes';
import { useEditKeeping } from '../work/edit-keeping';
import { announceTakeOver, useTakeOverSignal } from '../work/lock-signal';
import { AssignmentBar, ConceptProjects } from './projects/ConceptProjects';
import SuggestChange from './staging/SuggestChange';

const LOCK_RENEW_MS = 4 * 60 * 1000;

function LockNote({ lock }: { lock: Concept['lock'] }) {
  const { t } = useTranslation('concept');
  if (!lock) return null;
  const until = formatTime(lock.expirationTime);
  return (
    <p className="lock-note" role="status">
      {lock.mine
        ? t('lock.mine', { until })
        : t('lock.other', { who: lock.fullName || lock.name || t('lock.anotherUser'), until })}
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
  // The draft as the edit started (JSON): what "unsaved changes" are measured against.
  const [original, setOriginal] = useState<string | null>(null);
  const [, setDraftsSeen] = useState(0);
  // The edit lock went elsewhere while editing: the user's other tab ('tab') or someone else ('other').
  const [lockLost, setLockLost] = useState<'tab' | 'other' | null>(null);
  const { t: tw } = useTranslation('work');
  const { t } = useTranslation('concept');
  useEditKeeping(id, draft, original, baseVersion, lockLost === null);
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const start = useRef<(resume?: StoredDraft) => Promise<void>>(undefined);
  const resumed = useRef(false);
  const loaded = !!concept.data && !!context.data;
  const resume = query.get('edit') === '1';
  // Someone else changed the concept: the view reloads at once; the editor keeps the user's draft
  // (the concept's data reloads beneath it, the draft and its base version do not change).
  const live = useConceptChanges(
    id,
    context.data?.[0].find((d) => d.id === concept.data?.dictionaryId),
    concept.reload,
    concept.data?.terms?.map((term) => ({ id: term.id ?? 0, name: term.name ?? '' })),
  );

  /** The lock is no longer this tab's: who has it now decides the words; the draft stays in the editor. */
  const loseLock = useRef<() => Promise<void>>(undefined);
  loseLock.current = async () => {
    const now = await trpc.concepts.get
      .query({ id, format: 'FULL', 'with-comments': false, 'include-deleted': false })
      .catch(() => null);
    setLockLost(now && !isOwnLockElsewhere(now.lock) ? 'other' : 'tab');
  };

  // Held while editing: renewed before CONCEPT_LOCK_TIMEOUT runs out. A renewal refused means another
  // session holds the lock now (the user's other tab took it over, or it ran out and a colleague took it).
  const editing = draft !== null;
  const holding = editing && lockLost === null;
  useEffect(() => {
    if (!holding) return;
    const timer = setInterval(
      () =>
        void trpc.concepts.acquireLock
          .mutate({ id })
          .then((held) => (held ? undefined : loseLock.current?.()))
          .catch(() => undefined),
      LOCK_RENEW_MS,
    );
    return () => clearInterval(timer);
  }, [holding, id]);
  // The user's other tab of this browser says at once that it took the edit over.
  useTakeOverSignal(id, holding, () => setLockLost('tab'));

  // A reload, or sign-in after the session ran out, comes back with ?edit=1: the edit resumes, with the
  // draft kept in this browser.
  useEffect(() => {
    if (!loaded || !resume || resumed.current) return;
    resumed.current = true;
    void start.current?.(storedDraft(id) ?? undefined);
  }, [loaded, resume, id]);

  // Focus follows the work: the title when the concept opens or an edit ends, the form's first control
  // when an edit starts (never the page body).
  useEffect(() => {
    if (editing) form.current?.querySelector<HTMLElement>('select, input, textarea')?.focus();
    else if (loaded) heading.current?.focus();
  }, [editing, loaded]);

  if (concept.error) return <p role="alert">{concept.error.message}</p>;
  if (!concept.data || !context.data) return <p role="status">{t('common:loading')}</p>;
  const data = concept.data;
  const [dictionaries, settings] = context.data;
  const dictionary = dictionaries.find((d) => d.id === data.dictionaryId);
  const preferred = settings
    ? [settings.sourceLanguage, ...settings.targetLanguages].filter((c): c is string => !!c)
    : [];
  const available = (dictionary?.languages ?? []).map((l) => l.code);
  const fromUrl = [...new Set(codeList(query.get('langs')))].filter((c) => available.includes(c));
  const fromPrefs = preferred.filter((c) => available.includes(c));
  const languages = fromUrl.length ? fromUrl : fromPrefs.length ? fromPrefs : available;
  const tab = query.get('tab') ?? 'terms';
  // Working through an assignment's entries (projects): the "next entry" bar stays while the page changes.
  const assignmentId = Number(query.get('assignment')) || undefined;
  const setQuery = (changes: Record<string, string>) =>
    navigate(
      withQuery(`/concepts/${id}`, { langs: languages.join(','), tab, assignment: assignmentId, ...changes }),
      {
        replace: true,
      },
    );
  const guest = getSession()?.guest ?? false;
  const may = conceptRights(data, guest);
  const fieldNames = new Map(
    [...(dictionary?.conceptFields ?? []), ...(dictionary?.termFields ?? [])].map((f) => [
      f.oid ?? '',
      f.name,
    ]),
  );

  async function startEditing(resume?: StoredDraft) {
    // The ?edit=1 this sets must not start the edit a second time (over what the user types meanwhile).
    resumed.current = true;
    setNotice(null);
    setLockLost(null);
    try {
      const got = await trpc.concepts.acquireLock.mutate({ id });
      if (!got) {
        if (!isOwnLockElsewhere(data.lock)) setNotice(t('lock.refused'));
      } else {
        const saved = draftOf(data);
        setDraft(resume?.draft ?? saved);
        setOriginal(resume?.original ?? JSON.stringify(saved));
        setBaseVersion(resume?.baseVersion ?? data.version ?? 0);
        setProblems(noProblems);
        if (resume) setNotice(tw('draftRestored', { time: formatTime(resume.savedAt) }));
        setQuery({ edit: '1' });
      }
    } catch (caught) {
      setNotice(problemOf(caught).message);
    }
    concept.reload();
  }

  start.current = startEditing;

  /** Their version beside the user's draft, in the conflict dialog: keep mine, or take theirs. */
  async function compareWithTheirs() {
    const theirs = await trpc.concepts.get
      .query({ id, format: 'FULL', 'with-comments': false, 'include-deleted': false })
      .catch(() => null);
    if (!theirs) return;
    live.dismiss();
    setConflict({ message: t('live.compareMessage'), theirs });
  }

  /** Moves the user's own lock from their other tab here; the draft stored there comes along. */
  async function takeOver() {
    const got = await trpc.concepts.takeOverLock.mutate({ id }).catch(() => false);
    if (got) {
      announceTakeOver(id);
      await startEditing(storedDraft(id) ?? undefined);
    } else {
      setNotice(tw('takeOverRefused'));
      concept.reload();
    }
  }

  /**
   * Ends the edit (saved, or cancelled: the stored draft goes too) and releases the lock. With the lock
   * lost, the lock and the stored draft are the other tab's: both stay.
   */
  async function stopEditing() {
    setOriginal(null);
    setQuery({ edit: '' });
    if (lockLost === null) {
      forgetDraft(id);
      await trpc.concepts.releaseLock.mutate({ id }).catch(() => undefined);
    }
    // lockLost stays set until the next edit: the editor's release on leaving must see it.
    setDraft(null);
    setConflict(null);
    concept.reload();
  }

  async function save(version = baseVersion, edit = draft) {
    if (!edit || lockLost) return;
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
      setNotice(t('saved'));
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
        // Refused for a lock another session holds now: the edit went to another tab (or a colleague).
        if (theirs.lock && !theirs.lock.mine) {
          setLockLost(isOwnLockElsewhere(theirs.lock) ? 'tab' : 'other');
          return;
        }
        // A newer version with the content the edit started from (a workflow move counts a version and
        // changes no value) is no conflict: saved over once; a second refusal opens the dialog.
        const newer = theirs.version ?? 0;
        if (newer !== version && original !== null && JSON.stringify(draftOf(theirs)) === original) {
          setBaseVersion(newer);
          await save(newer, edit);
          return;
        }
        setConflict({ message: problem.message, theirs });
      } else setProblems(editorProblemsOf(problem.message, fieldNames));
    } finally {
      setBusy(false);
    }
  }

  const title = conceptLabel(data, languages);
  const stored = draft || guest ? null : storedDraft(id);
  return (
    <article aria-labelledby="concept-title">
      <h1 id="concept-title" ref={heading} tabIndex={-1}>
        <span className="value">{title}</span> <span className="hint">{t('cid', { cid: data.cid })}</span>
      </h1>
      {!draft && may.edit && isOwnLockElsewhere(data.lock) ? (
        <OwnLockNote lock={data.lock} onTakeOver={() => void takeOver()} />
      ) : (
        <LockNote lock={data.lock} />
      )}
      {!draft && !resume && stored && (
        <DraftOffer
          stored={stored}
          onContinue={() => void startEditing(stored)}
          onDiscard={() => {
            forgetDraft(id);
            setDraftsSeen((count) => count + 1);
          }}
        />
      )}
      <ConceptChangeBanner
        change={live.change}
        editing={draft !== null}
        onDismiss={live.dismiss}
        onCompare={() => void compareWithTheirs()}
      />
      {assignmentId !== undefined && <AssignmentBar assignmentId={assignmentId} conceptId={id} />}
      {notice && (
        <p role="status" className="hint">
          {notice}
        </p>
      )}
      {!guest && !draft && (
        <div className="actions">
          {may.edit && (
            <button type="button" className="primary" onClick={() => void startEditing()}>
              {t('edit')}
            </button>
          )}
          <DeleteConcept
            concept={data}
            label={title}
            onDeleted={() => navigate(withQuery('/search', { d: data.dictionaryId }))}
          />
        </div>
      )}
      {!draft && <SendFeedback subject={{ concept: { id, title, terms: data.terms ?? [] } }} />}
      {!draft && !guest && <SuggestChange concept={data} dictionary={dictionary} />}
      {!draft && (
        <WorkflowPanel
          concept={data}
          languageNames={new Map((dictionary?.languages ?? []).map((l) => [l.code, l.name]))}
          onMoved={concept.reload}
        />
      )}
      {!draft && <ConceptProjects conceptId={id} />}
      {draft && dictionary ? (
        <form
          ref={form}
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
          {lockLost && (
            <p role="alert" className="lock-note">
              {tw(lockLost === 'tab' ? 'lockLostToTab' : 'lockLostToOther')}
            </p>
          )}
          <div className="actions" style={{ marginTop: '0.8rem' }}>
            <button type="submit" className="primary" disabled={busy || lockLost !== null}>
              {t('save')}
            </button>
            <button type="button" onClick={() => void stopEditing()}>
              {t('cancelEdit')}
            </button>
          </div>
          <SaveProblems problems={problems} form={form} />
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
            legend={t('languagesShown')}
            className="pickers"
            options={languageOptions((dictionary?.languages ?? []).filter((l) => !l.deleted))}
            chosen={languages}
            onChange={(codes) => setQuery({ langs: codes.join(',') })}
          />
          <Tabs.Root value={tab} onValueChange={(value) => setQuery({ tab: value })}>
            <Tabs.List className="tabs-list" aria-label={t('tabs.label')}>
              <Tabs.Trigger value="terms">{t('tabs.terms')}</Tabs.Trigger>
              <Tabs.Trigger value="comments">{t('tabs.comments')}</Tabs.Trigger>
              <Tabs.Trigger value="history">{t('tabs.history')}</Tabs.Trigger>
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
              <CommentsPanel entryId={id} canComment={!guest} dictionary={dictionary} />
            </Tabs.Content>
            <Tabs.Content value="history">
              <HistoryPanel
                conceptId={id}
                version={data.version ?? 0}
                dictionary={dictionary}
                canRestore={may.restore}
                onRestored={concept.reload}
              />
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}
    </article>
  );
}
