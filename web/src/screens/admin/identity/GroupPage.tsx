import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { navigate } from '../../../routes';
import type { Notice } from '../admin-forms';
import { ConfirmButton, ConflictDialog, formProblems, SaveBar, TextField, useWrite } from '../admin-forms';
import type { AdminPageProps } from '../admin-page';

type Group = Awaited<ReturnType<typeof trpc.groups.get.query>>;
type Member = NonNullable<Group['groupMembers']>[number];

/** /admin/groups/:id: a group's name, description, session length and explicit members. */
export default function GroupPage({ params }: AdminPageProps) {
  const { t } = useTranslation('admin');
  // Kept here: a save gives the form a new version, which starts it afresh.
  const [saved, setSaved] = useState<string | null>(null);
  const id = Number(params.id);
  const loaded = useLoaded(
    () => trpc.groups.get.query({ id, format: 'EDIT', 'include-deleted': false }),
    String(id),
  );
  return (
    <>
      <h1>{t('groups.edit', { name: loaded.data?.name ?? '' })}</h1>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <GroupForm
          saved={saved}
          setSaved={setSaved}
          key={loaded.data.version}
          group={loaded.data}
          onSaved={loaded.reload}
        />
      )}
    </>
  );
}

function GroupForm({ group, onSaved, saved, setSaved }: { group: Group; onSaved: () => void } & Notice) {
  const { t } = useTranslation('admin');
  const system = group.type !== undefined && group.type !== 'NORMAL';
  const users = useLoaded(() => trpc.users.list.query({ page: 0, size: 500, format: 'SHORT' }), 'users');
  const [name, setName] = useState(group.name ?? '');
  const [description, setDescription] = useState(group.description ?? '');
  const [timeout, setTimeout_] = useState(group.timeout ? String(group.timeout) : '');
  const [members, setMembers] = useState<Member[]>(group.groupMembers ?? []);
  const [adding, setAdding] = useState('');
  const write = useWrite();
  const problems = formProblems(write.problem, 'group');
  const candidates = (users.data?.content ?? []).filter(
    (user) => !members.some((member) => member.id === user.id),
  );

  async function save(version = group.version) {
    setSaved(null);
    const ok = await write.run(() =>
      trpc.groups.patch.mutate({
        id: group.id,
        version,
        format: 'ID',
        ...(system
          ? {}
          : { name, description: description || null, timeout: timeout ? Number(timeout) : null }),
        groupMembers: members.map((member) => member.id),
      }),
    );
    if (ok) {
      setSaved(t('saved'));
      onSaved();
    }
  }

  function add() {
    const user = candidates.find((candidate) => String(candidate.id) === adding);
    if (!user) return;
    setMembers([...members, { id: user.id, username: user.username ?? '', fullName: user.fullName ?? null }]);
    setAdding('');
  }

  return (
    <form
      className="admin-form"
      aria-label={t('groups.edit', { name: group.name })}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save();
      }}
    >
      {system ? (
        <p className="hint">{t('groups.system')}</p>
      ) : (
        <>
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
          <TextField
            label={t('groups.timeout')}
            type="number"
            value={timeout}
            onChange={setTimeout_}
            path="timeout"
            problems={problems}
            hint={t('groups.timeoutHint')}
          />
        </>
      )}
      <fieldset aria-describedby={problems.describedBy('groupMembers')}>
        <legend>{t('groups.members')}</legend>
        {members.length === 0 && <p>{t('groups.noMembers')}</p>}
        <ul className="admin-members">
          {members.map((member) => (
            <li key={member.id}>
              <span>
                {member.username}
                {member.fullName ? ` (${member.fullName})` : ''}
              </span>
              <button
                type="button"
                onClick={() => setMembers(members.filter((other) => other.id !== member.id))}
                aria-label={t('groups.removeMember', { name: member.username })}
              >
                {t('remove')}
              </button>
            </li>
          ))}
        </ul>
        <div className="admin-toolbar">
          <label>
            {t('groups.addMember')}
            <select value={adding} onChange={(event) => setAdding(event.target.value)}>
              <option value="">{t('groups.chooseUser')}</option>
              {candidates.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.username}
                  {user.fullName ? ` (${user.fullName})` : ''}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={add} disabled={!adding}>
            {t('add')}
          </button>
        </div>
      </fieldset>
      <SaveBar label={t('save')} busy={write.busy} problems={problems} scope="group" saved={saved}>
        {!system && (
          <ConfirmButton
            label={t('delete')}
            question={t('groups.deleteQuestion', { name: group.name })}
            confirm={t('delete')}
            danger
            onConfirm={() =>
              void write
                .run(() => trpc.groups.delete.mutate({ id: group.id }))
                .then((ok) => ok && navigate('/admin/groups'))
            }
          />
        )}
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
              (await trpc.groups.get.query({ id: group.id, format: 'FULL', 'include-deleted': false }))
                .version,
            )
          }
        />
      )}
    </form>
  );
}
