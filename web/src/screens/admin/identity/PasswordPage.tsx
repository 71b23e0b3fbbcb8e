import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { useLoaded } from '../../../data';
import { formProblems, SaveBar, TextField, useWrite } from '../admin-forms';

/**
 * Changing one's own password: the password in force, the new one twice, under the installation's
 * password rule (shown before typing). `onChanged` follows the server's yes (the forced change ends).
 */
export function PasswordForm({ forced, onChanged }: { forced?: boolean; onChanged?: () => void }) {
  const { t } = useTranslation('admin');
  const rule = useLoaded(() => trpc.users.passwordSettings.query(), 'rule');
  const [currentPassword, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'password');

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    if (
      await write.run(() =>
        trpc.profile.changePassword.mutate({ currentPassword, password, confirmPassword }),
      )
    ) {
      setCurrent('');
      setPassword('');
      setConfirm('');
      setSaved(t('password.changed'));
      onChanged?.();
    }
  }

  return (
    <form className="admin-form" onSubmit={save} aria-labelledby="password-title">
      <h1 id="password-title">{t(forced ? 'password.forcedTitle' : 'password.title')}</h1>
      {forced && <p role="status">{t('password.forcedText')}</p>}
      {rule.data?.msg && <p className="hint">{t('password.rule', { rule: rule.data.msg })}</p>}
      <TextField
        label={t('password.current')}
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={setCurrent}
        required
        path="currentPassword"
        problems={problems}
      />
      <TextField
        label={t('password.new')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        required
        path="password"
        problems={problems}
      />
      <TextField
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={setConfirm}
        required
        path="confirmPassword"
        problems={problems}
      />
      <SaveBar
        label={t('password.save')}
        busy={write.busy}
        problems={problems}
        scope="password"
        saved={saved}
      />
    </form>
  );
}

/** /admin/profile/password */
export default function PasswordPage() {
  return <PasswordForm />;
}
