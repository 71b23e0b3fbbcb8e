import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { navigate } from '../../../routes';
import type { Notice } from '../admin-forms';
import {
  ConfirmButton,
  ConflictDialog,
  formProblems,
  Problems,
  SaveBar,
  TextField,
  useWrite,
} from '../admin-forms';
import type { AdminPageProps } from '../admin-page';
import { SchemeDictionaries } from './SchemeDictionaries';

type Scheme = Awaited<ReturnType<typeof trpc.permissionSchemes.get.query>>;
type Grant = NonNullable<Scheme['grants']>[number];
type Kind = 'dictionaryPermissions' | 'conceptPermissions' | 'termPermissions';

/** The permissions a grant can hold, by kind, as the server names them (permission-scheme.entity.ts). */
const PERMISSIONS: Record<Kind, readonly string[]> = {
  dictionaryPermissions: [
    'DICT_READ',
    'DICT_UPDATE',
    'DICT_DELETE',
    'CONCEPT_CREATE',
    'CONCEPT_PRINT',
    'CONCEPT_IMPORT',
    'CONCEPT_EXPORT',
  ],
  conceptPermissions: [
    'CONCEPT_EDIT_FIELDS',
    'CONCEPT_UPDATE',
    'CONCEPT_DELETE',
    'CONCEPT_PRINT',
    'CONCEPT_VIEW_HISTORY',
    'RESTORE_STATE',
    'TERM_CREATE',
  ],
  termPermissions: ['TERM_UPDATE', 'TERM_DELETE'],
};
const KINDS = Object.keys(PERMISSIONS) as Kind[];

/** /admin/permission-schemes/:id: a scheme's name and, per group, what its members may do. */
export default function PermissionSchemePage({ params }: AdminPageProps) {
  const { t } = useTranslation('admin');
  // Kept here: a save gives the form a new version, which starts it afresh.
  const [saved, setSaved] = useState<string | null>(null);
  const id = Number(params.id);
  const loaded = useLoaded(
    () => trpc.permissionSchemes.get.query({ id, format: 'FULL', 'include-deleted': false }),
    String(id),
  );
  return (
    <>
      <h1>{t('schemes.edit', { name: loaded.data?.name ?? '' })}</h1>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <SchemeForm
          saved={saved}
          setSaved={setSaved}
          key={loaded.data.version}
          scheme={loaded.data}
          onSaved={loaded.reload}
        />
      )}
      {loaded.data && <SchemeDictionaries schemeId={loaded.data.id} />}
    </>
  );
}

function SchemeForm({ scheme, onSaved, saved, setSaved }: { scheme: Scheme; onSaved: () => void } & Notice) {
  const { t } = useTranslation('admin');
  const groups = useLoaded(
    () =>
      trpc.groups.list
        .query({
          page: 0,
          size: 500,
          format: 'SHORT',
          'include-all': true,
          'include-guest': true,
          'include-private': true,
        })
        .then((page) => page.content),
    'groups',
  );
  const [name, setName] = useState(scheme.name ?? '');
  const [description, setDescription] = useState(scheme.description ?? '');
  const [grants, setGrants] = useState<Grant[]>(scheme.grants ?? []);
  const [adding, setAdding] = useState('');
  const write = useWrite();
  const problems = formProblems(write.problem, 'scheme');
  const groupName = (id: number) => groups.data?.find((group) => group.id === id)?.name ?? String(id);
  const free = (groups.data ?? []).filter((group) => !grants.some((grant) => grant.groupId === group.id));

  function change(index: number, kind: Kind, permission: string, on: boolean) {
    setGrants(
      grants.map((grant, at) =>
        at !== index
          ? grant
          : {
              ...grant,
              [kind]: on
                ? [...(grant[kind] as string[]), permission]
                : (grant[kind] as string[]).filter((held) => held !== permission),
            },
      ),
    );
  }

  async function save(version = scheme.version) {
    setSaved(null);
    const ok = await write.run(() =>
      trpc.permissionSchemes.update.mutate({
        id: scheme.id,
        version,
        format: 'ID',
        name,
        description: description || null,
        grants,
      }),
    );
    if (ok) {
      setSaved(t('saved'));
      onSaved();
    }
  }

  return (
    <form
      className="admin-form wide"
      aria-label={t('schemes.edit', { name: scheme.name })}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save();
      }}
    >
      <TextField
        label={t('fields.name')}
        value={name}
        onChange={setName}
        required
        maxLength={255}
        path="name"
        problems={problems}
      />
      <TextField
        label={t('fields.description')}
        value={description}
        onChange={setDescription}
        path="description"
        problems={problems}
      />
      {grants.map((grant, index) => (
        <fieldset key={grant.groupId} aria-describedby={problems.describedBy(`grants.${index}`)}>
          <legend>{t('schemes.grantFor', { name: groupName(grant.groupId) })}</legend>
          {KINDS.map((kind) => (
            <fieldset key={kind} className="plain">
              <legend>{t(`schemes.${kind}`)}</legend>
              <div className="admin-checks">
                {PERMISSIONS[kind].map((permission) => (
                  <label key={permission} className="check">
                    <input
                      type="checkbox"
                      checked={(grant[kind] as string[]).includes(permission)}
                      onChange={(event) => change(index, kind, permission, event.target.checked)}
                    />
                    {t(`permission.${permission}`)}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
          <button
            type="button"
            onClick={() => setGrants(grants.filter((_, at) => at !== index))}
            aria-label={t('schemes.removeGrant', { name: groupName(grant.groupId) })}
          >
            {t('remove')}
          </button>
          <Problems id={problems.id(`grants.${index}`)} messages={problems.at(`grants.${index}`)} />
        </fieldset>
      ))}
      <div className="admin-toolbar">
        <label>
          {t('schemes.addGroup')}
          <select value={adding} onChange={(event) => setAdding(event.target.value)}>
            <option value="">{t('schemes.chooseGroup')}</option>
            {free.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={!adding}
          onClick={() => {
            setGrants([
              ...grants,
              {
                groupId: Number(adding),
                dictionaryPermissions: ['DICT_READ'],
                conceptPermissions: [],
                termPermissions: [],
                languages: [],
              },
            ]);
            setAdding('');
          }}
        >
          {t('add')}
        </button>
      </div>
      <SaveBar label={t('save')} busy={write.busy} problems={problems} scope="scheme" saved={saved}>
        <ConfirmButton
          label={t('delete')}
          question={t('schemes.deleteQuestion', { name: scheme.name })}
          confirm={t('delete')}
          danger
          onConfirm={() =>
            void write
              .run(() => trpc.permissionSchemes.delete.mutate({ id: scheme.id }))
              .then((ok) => ok && navigate('/admin/permission-schemes'))
          }
        />
      </SaveBar>
      {write.conflict && (
        <ConflictDialog
          problem={write.conflict}
          onClose={write.clear}
          onTakeTheirs={() => {
            write.clear();
            onSaved();
          }}
          onOverwrite={async () =>
            save(
              (
                await trpc.permissionSchemes.get.query({
                  id: scheme.id,
                  format: 'FULL',
                  'include-deleted': false,
                })
              ).version,
            )
          }
        />
      )}
    </form>
  );
}
