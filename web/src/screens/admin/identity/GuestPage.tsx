import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { CheckField, formProblems, Problems, SaveBar, TextField, useWrite } from '../admin-forms';

type Settings = Awaited<ReturnType<typeof trpc.guests.get.query>>;
const METHODS = ['NORMAL', 'GUEST_AUTOLOGIN', 'GUEST_CLIENT_AUTOLOGIN'] as const;
const UNCHANGED = '******';

/** /admin/users/guest: anonymous access to the client, the guest account and what guests may do. */
export default function GuestPage() {
  const { t } = useTranslation('admin');
  const loaded = useLoaded(() => trpc.guests.get.query(), 'guest');
  return (
    <>
      <h1>{t('guest.title')}</h1>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && <GuestForm settings={loaded.data} />}
    </>
  );
}

function GuestForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation('admin');
  const [form, setForm] = useState({
    ...settings,
    username: settings.username ?? '',
    password: settings.password ?? '',
  });
  const set =
    <K extends keyof typeof form>(key: K) =>
    (value: (typeof form)[K]) =>
      setForm({ ...form, [key]: value });
  const [saved, setSaved] = useState<string | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'guest');

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    let answer: Settings | undefined;
    const ok = await write.run(async () => {
      answer = await trpc.guests.update.mutate({
        enabled: form.enabled,
        username: form.username || null,
        password: form.password || null,
        loginMethod: form.loginMethod,
        enableQuickFilters: form.enableQuickFilters,
        enableSearchModes: form.enableSearchModes,
        enableCommenting: form.enableCommenting,
        enableFeedback: form.enableFeedback,
      });
    });
    if (ok && answer) {
      setForm({ ...answer, username: answer.username ?? '', password: answer.password ?? '' });
      setSaved(t('saved'));
    }
  }

  return (
    <form className="admin-form" onSubmit={save} aria-label={t('guest.title')}>
      <CheckField
        label={t('guest.enabled')}
        checked={form.enabled}
        onChange={set('enabled')}
        path="enabled"
        problems={problems}
      />
      <TextField
        label={t('guest.username')}
        value={form.username}
        onChange={set('username')}
        path="username"
        problems={problems}
        autoComplete="off"
        required={form.enabled}
      />
      <TextField
        label={t('guest.password')}
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={set('password')}
        path="password"
        problems={problems}
        hint={form.password === UNCHANGED ? t('users.passwordKept') : undefined}
      />
      <fieldset aria-describedby={problems.describedBy('loginMethod')}>
        <legend>{t('guest.loginMethod')}</legend>
        {METHODS.map((method) => (
          <label key={method} className="check">
            <input
              type="radio"
              name="loginMethod"
              value={method}
              checked={form.loginMethod === method}
              disabled={method === 'GUEST_AUTOLOGIN' && settings.autoAlwaysDisabled}
              onChange={() => set('loginMethod')(method)}
            />
            {t(`guest.method.${method}`)}
          </label>
        ))}
        <Problems id={problems.id('loginMethod')} messages={problems.at('loginMethod')} />
      </fieldset>
      <CheckField
        label={t('guest.quickFilters')}
        checked={form.enableQuickFilters}
        onChange={set('enableQuickFilters')}
        path="enableQuickFilters"
        problems={problems}
      />
      <CheckField
        label={t('guest.searchModes')}
        checked={form.enableSearchModes}
        onChange={set('enableSearchModes')}
        path="enableSearchModes"
        problems={problems}
      />
      <CheckField
        label={t('guest.commenting')}
        checked={form.enableCommenting}
        onChange={set('enableCommenting')}
        path="enableCommenting"
        problems={problems}
      />
      <CheckField
        label={t('guest.feedback')}
        checked={form.enableFeedback}
        onChange={set('enableFeedback')}
        path="enableFeedback"
        problems={problems}
      />
      <SaveBar label={t('save')} busy={write.busy} problems={problems} scope="guest" saved={saved} />
    </form>
  );
}
