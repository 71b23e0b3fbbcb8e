import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { ErrorMessage } from '../components/controls';
import { navigate } from '../routes';
import { setSession } from '../session';
import { SessionEndNote } from '../work/SessionEndNote';

/** Client, user and password; or a guest session where the client opens one (its guest login method). */
export function SignInScreen({ next }: { next: string | null }) {
  const { t } = useTranslation();
  const [client, setClient] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Only paths of this application: never a link that sends the user elsewhere after signing in.
  const target =
    next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/signin') ? next : '/search';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await trpc.auth.login.mutate({ username, password, ...(client ? { client } : {}) });
      if (!result.token) throw new Error(result.errorMessage ?? t('signIn.failed'));
      setSession({ ...result.token, username, client, guest: false });
      navigate(target, { replace: true });
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  async function asGuest() {
    setBusy(true);
    setError(null);
    try {
      const features = client
        ? await trpc.system.clientFeatures.query({ clientLogin: client })
        : await trpc.system.features.query();
      if (!features.GUEST_TOKEN) throw new Error(t('signIn.noGuest'));
      setSession({ ...features.GUEST_TOKEN, username: 'guest', client, guest: true });
      navigate(target, { replace: true });
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card signin" onSubmit={submit} aria-labelledby="signin-title">
      <h1 id="signin-title">{t('signIn.title')}</h1>
      <SessionEndNote why={new URLSearchParams(location.search).get('why')} />
      <label>
        {t('signIn.client')} <span className="hint">{t('signIn.clientHint')}</span>
        <input
          name="client"
          value={client}
          onChange={(e) => setClient(e.target.value)}
          autoComplete="organization"
        />
      </label>
      <label>
        {t('signIn.username')}
        <input
          name="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username"
          required
        />
      </label>
      <label>
        {t('signIn.password')}
        <input
          name="password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          required
        />
      </label>
      <ErrorMessage text={error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('signIn.submit')}
        </button>
        <button type="button" onClick={() => void asGuest()} disabled={busy}>
          {t('signIn.asGuest')}
        </button>
      </div>
    </form>
  );
}
