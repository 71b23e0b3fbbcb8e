import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { navigate } from '../../../routes';
import type { Notice } from '../admin-forms';
import {
  CheckField,
  ConfirmButton,
  ConflictDialog,
  formProblems,
  Problems,
  SaveBar,
  TextField,
  useWrite,
} from '../admin-forms';
import type { AdminPageProps } from '../admin-page';
import { useRights } from '../structure/rights';

type User = Awaited<ReturnType<typeof trpc.users.get.query>>;
const UNCHANGED = '******';

/** /admin/users/new and /admin/users/:id: one account; roles and groups for client administrators only. */
export default function UserPage({ params }: AdminPageProps) {
  const { t } = useTranslation('admin');
  // Kept here: a save gives the form a new version, which starts it afresh.
  const [saved, setSaved] = useState<string | null>(null);
  const id = params.id === undefined ? null : Number(params.id);
  const loaded = useLoaded(
    () =>
      id === null
        ? Promise.resolve(null)
        : trpc.users.get.query({ id, format: 'EDIT', 'include-deleted': false }),
    String(id),
  );
  return (
    <>
      <h1>{id === null ? t('users.new') : t('users.edit', { name: loaded.data?.username ?? '' })}</h1>
      <ErrorMessage text={loaded.error?.message} />
      {(id === null || loaded.data) && (
        <UserForm
          saved={saved}
          setSaved={setSaved}
          key={loaded.data?.version ?? 'new'}
          user={loaded.data ?? null}
          onSaved={loaded.reload}
        />
      )}
    </>
  );
}

function UserForm({ user, onSaved, saved, setSaved }: { user: User | null; onSaved: () => void } & Notice) {
  const { t } = useTranslation('admin');
  const rights = useRights();
  const admin = rights?.admin ?? false;
  const extras = useLoaded(
    () =>
      admin
        ? Promise.all([
            trpc.roles.list.query(),
            trpc.groups.list.query({
              page: 0,
              size: 500,
              format: 'SHORT',
              'include-all': false,
              'include-guest': false,
            }),
          ])
        : Promise.resolve(null),
    String(admin),
  );
  const [form, setForm] = useState({
    username: user?.username ?? '',
    fullName: user?.fullName ?? '',
    email: user?.email ?? '',
    title: user?.title ?? '',
    expDate: user?.expDate ? new Date(user.expDate).toISOString().slice(0, 10) : '',
    active: user?.active ?? true,
    password: user ? UNCHANGED : '',
    confirmPassword: user ? UNCHANGED : '',
    forcePasswordChange: user?.forcePasswordChange ?? false,
    sendNotificationEmail: false,
    roles: user?.roles ?? [],
    groups: (user?.groups ?? []).map((group) => group.id),
  });
  const set =
    <K extends keyof typeof form>(key: K) =>
    (value: (typeof form)[K]) =>
      setForm({ ...form, [key]: value });
  const toggle = <T,>(list: T[], item: T, on: boolean) =>
    on ? [...list, item] : list.filter((x) => x !== item);
  const write = useWrite();
  const problems = formProblems(write.problem, 'user');

  const body = () => ({
    format: 'EDIT' as const,
    username: form.username,
    fullName: form.fullName || null,
    email: form.email || null,
    title: form.title || null,
    expDate: form.expDate || null,
    active: form.active,
    password: form.password || null,
    confirmPassword: form.confirmPassword || null,
    forcePasswordChange: form.forcePasswordChange,
    sendNotificationEmail: form.sendNotificationEmail,
    ...(admin ? { roles: form.roles, groups: form.groups } : {}),
  });

  async function save(version = user?.version) {
    setSaved(null);
    let created: number | undefined;
    const ok = await write.run(async () => {
      if (user) await trpc.users.patch.mutate({ ...body(), id: user.id, version });
      else created = (await trpc.users.create.mutate(body())).id;
    });
    if (!ok) return;
    if (created !== undefined) navigate(`/admin/users/${created}`, { replace: true });
    else {
      setSaved(t('saved'));
      onSaved();
    }
  }

  const [roles, groups] = extras.data ?? [[], { content: [] }];
  return (
    <form
      className="admin-form"
      aria-label={user ? t('users.edit', { name: user.username }) : t('users.new')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save();
      }}
    >
      <TextField
        label={t('fields.username')}
        value={form.username}
        onChange={set('username')}
        required
        path="username"
        problems={problems}
        autoComplete="off"
      />
      <TextField
        label={t('fields.fullName')}
        value={form.fullName}
        onChange={set('fullName')}
        path="fullName"
        problems={problems}
      />
      <TextField
        label={t('fields.email')}
        type="email"
        value={form.email}
        onChange={set('email')}
        path="email"
        problems={problems}
      />
      <TextField
        label={t('fields.title')}
        value={form.title}
        onChange={set('title')}
        path="title"
        problems={problems}
      />
      <TextField
        label={t('users.expDate')}
        type="date"
        value={form.expDate}
        onChange={set('expDate')}
        path="expDate"
        problems={problems}
      />
      <CheckField
        label={t('fields.active')}
        checked={form.active}
        onChange={set('active')}
        path="active"
        problems={problems}
      />
      <TextField
        label={t('password.new')}
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={set('password')}
        path="password"
        problems={problems}
        hint={user ? t('users.passwordKept') : undefined}
      />
      <TextField
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        value={form.confirmPassword}
        onChange={set('confirmPassword')}
        path="confirmPassword"
        problems={problems}
      />
      <CheckField
        label={t('users.forcePasswordChange')}
        checked={form.forcePasswordChange}
        onChange={set('forcePasswordChange')}
        path="forcePasswordChange"
        problems={problems}
      />
      <CheckField
        label={t('users.sendNotificationEmail')}
        checked={form.sendNotificationEmail}
        onChange={set('sendNotificationEmail')}
        path="sendNotificationEmail"
        problems={problems}
      />
      {admin && (
        <fieldset aria-describedby={problems.describedBy('roles')}>
          <legend>{t('users.roles')}</legend>
          <div className="admin-checks">
            {roles.map((role) => (
              <label key={role.systemname} className="check">
                <input
                  type="checkbox"
                  checked={form.roles.includes(role.systemname)}
                  onChange={(event) =>
                    set('roles')(toggle(form.roles, role.systemname, event.target.checked))
                  }
                />
                {role.name}
              </label>
            ))}
          </div>
          <Problems id={problems.id('roles')} messages={problems.at('roles')} />
        </fieldset>
      )}
      {admin && (
        <fieldset aria-describedby={problems.describedBy('groups')}>
          <legend>{t('users.groups')}</legend>
          <div className="admin-checks">
            {groups.content.map((group) => (
              <label key={group.id} className="check">
                <input
                  type="checkbox"
                  checked={form.groups.includes(group.id)}
                  onChange={(event) => set('groups')(toggle(form.groups, group.id, event.target.checked))}
                />
                {group.name}
              </label>
            ))}
          </div>
          <Problems id={problems.id('groups')} messages={problems.at('groups')} />
        </fieldset>
      )}
      <SaveBar
        label={user ? t('save') : t('create')}
        busy={write.busy}
        problems={problems}
        scope="user"
        saved={saved}
      >
        {user && (
          <ConfirmButton
            label={t('delete')}
            question={t('users.deleteQuestion', { name: user.username })}
            confirm={t('delete')}
            danger
            onConfirm={() =>
              void write
                .run(() => trpc.users.delete.mutate({ id: user.id }))
                .then((ok) => ok && navigate('/admin/users'))
            }
          />
        )}
      </SaveBar>
      {write.conflict && user && (
        <ConflictDialog
          problem={write.conflict}
          onClose={write.clear}
          onTakeTheirs={() => {
            write.clear();
            onSaved();
          }}
          onOverwrite={async () =>
            save(
              (await trpc.users.get.query({ id: user.id, format: 'EDIT', 'include-deleted': false })).version,
            )
          }
        />
      )}
    </form>
  );
}
