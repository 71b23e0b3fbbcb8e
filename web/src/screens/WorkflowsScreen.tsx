import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { Choice, dictionaryOptions, ErrorMessage } from '../components/controls';
import { type EnablePreview, EnablePreviewDialog } from '../components/EnablePreviewDialog';
import { type Workflow, WorkflowEditor } from '../components/WorkflowEditor';
import type { RuleChoices } from '../components/WorkflowRuleControls';
import { type Dictionary, loadDictionaries, useLoaded } from '../data';
import { navigate, withQuery } from '../routes';

/**
 * Workflow definitions of a dictionary, for its administrators (issue 28, docs/workflows.md): the
 * dictionary's workflows, the default one created in one step, each enabled or disabled (at most one
 * governs the dictionary: the server refuses a second) and its states and transitions edited. The
 * server decides who may: others see its 403 message. `d` in the URL names the dictionary.
 */
export default function WorkflowsScreen({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('workflow');
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const dictionaryId = Number(query.get('d')) || dictionaries.data?.[0]?.id;
  return (
    <div className="workflows-page stack">
      <h1>{t('screen.title')}</h1>
      <Choice
        label={t('screen.dictionary')}
        value={dictionaryId ?? ''}
        options={dictionaryOptions(dictionaries.data ?? [])}
        onChange={(value) => navigate(withQuery('/workflows', { d: value }), { replace: true })}
      />
      <ErrorMessage text={dictionaries.error?.message} />
      {dictionaryId !== undefined && (
        <DictionaryWorkflows
          key={dictionaryId}
          dictionaryId={dictionaryId}
          dictionary={dictionaries.data?.find((d) => d.id === dictionaryId)}
        />
      )}
    </div>
  );
}

/**
 * The client's groups and users for the editor's pickers. Users only administrators may list: for others
 * the editor takes user ids as typed (null).
 */
async function loadPeople(): Promise<Omit<RuleChoices, 'dictionary'>> {
  const list = { page: 0, size: 500, format: 'FULL', 'include-deleted': false } as const;
  const [groups, users] = await Promise.all([
    trpc.groups.list.query({ ...list, 'include-all': true, 'include-guest': false }).then((p) => p.content),
    trpc.users.list.query(list).then(
      (p) => p.content,
      () => null,
    ),
  ]);
  return { groups, users };
}

function DictionaryWorkflows({
  dictionaryId,
  dictionary,
}: {
  dictionaryId: number;
  dictionary?: Dictionary;
}) {
  const { t } = useTranslation('workflow');
  const people = useLoaded(loadPeople, 'people');
  const list = useLoaded(
    () =>
      trpc.workflows.list
        .query({
          'dictionary-id': dictionaryId,
          page: 0,
          size: 100,
          format: 'FULL',
          'include-deleted': false,
        })
        .then((page) => page.content as Workflow[]),
    `workflows ${dictionaryId}`,
  );
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  // A change is announced once the list shows it: the forms below start again from each new version,
  // so an edit begun before the reload came back would be lost.
  const [announce, setAnnounce] = useState<{ text: string; before: unknown } | null>(null);
  useEffect(() => {
    if (announce && list.data !== announce.before) {
      setStatus(announce.text);
      setAnnounce(null);
    }
  }, [announce, list.data]);
  const reloadThenSay = (text: string) => {
    setAnnounce({ text, before: list.data });
    list.reload();
  };

  async function act(run: () => Promise<unknown>, done: string) {
    setError(null);
    setStatus(null);
    try {
      await run();
      reloadThenSay(done);
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  const createDefault = () =>
    act(
      () =>
        trpc.workflows.create.mutate({
          format: 'FULL',
          name: t('screen.defaultName'),
          dictionaryId,
          unit: 'LANGUAGE',
          enabled: false,
        }),
      t('screen.created'),
    );
  // Enabling shows first who would stop seeing which entries (issue 36); disabling hides nothing.
  const [confirming, setConfirming] = useState<{ workflow: Workflow; preview: EnablePreview } | null>(null);
  async function askToEnable(workflow: Workflow) {
    setError(null);
    setStatus(null);
    try {
      setConfirming({ workflow, preview: await trpc.workflows.enablePreview.query({ id: workflow.id }) });
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }
  const setEnabled = (workflow: Workflow, enabled: boolean) =>
    act(
      () =>
        trpc.workflows.patch.mutate({ id: workflow.id, version: workflow.version, format: 'FULL', enabled }),
      t(enabled ? 'screen.enabledNote' : 'screen.disabledNote', { name: workflow.name }),
    );

  return (
    <>
      <div className="actions">
        <button type="button" onClick={() => void createDefault()}>
          {t('screen.createDefault')}
        </button>
      </div>
      <ErrorMessage text={error ?? list.error?.message} />
      {status && <p role="status">{status}</p>}
      {list.data && list.data.length === 0 && <p>{t('screen.none')}</p>}
      {list.data?.map((workflow) => (
        <section key={workflow.id} className="card" aria-labelledby={`workflow-${workflow.id}`}>
          <h2 id={`workflow-${workflow.id}`}>
            {workflow.name}{' '}
            <span className={`badge ${workflow.enabled ? 'on' : ''}`}>
              {t(workflow.enabled ? 'screen.enabled' : 'screen.disabled')}
            </span>
          </h2>
          <p>
            {t(
              `screen.unit.${workflow.unit === 'CONCEPT' || workflow.unit === 'TERM' ? workflow.unit : 'LANGUAGE'}`,
            )}
          </p>
          <div className="actions">
            <button
              type="button"
              onClick={() => void (workflow.enabled ? setEnabled(workflow, false) : askToEnable(workflow))}
            >
              {t(workflow.enabled ? 'screen.disable' : 'screen.enable', { name: workflow.name })}
            </button>
          </div>
          <WorkflowEditor
            // A new version (saved here or elsewhere) starts the form again from what the server holds.
            key={`${workflow.id} ${workflow.version} ${round}`}
            workflow={workflow}
            choices={{ dictionary, groups: people.data?.groups ?? [], users: people.data?.users ?? null }}
            onSaved={() => reloadThenSay(`${workflow.name} saved.`)}
            onReload={() => {
              setRound((value) => value + 1);
              list.reload();
            }}
          />
        </section>
      ))}
      {confirming && (
        <EnablePreviewDialog
          name={confirming.workflow.name ?? ''}
          preview={confirming.preview}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            void setEnabled(confirming.workflow, true);
          }}
        />
      )}
    </>
  );
}
