import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { formProblems, Problems, SaveBar, TextField, useWrite } from '../admin-forms';

type ServerSettings = Awaited<ReturnType<typeof trpc.mailSettings.server.query>>;
const SECURITIES = ['STARTTLS', 'TLS', 'NONE'] as const;
const UNCHANGED = '******';

/** The installation's SMTP server (system administrators): the configuration, or a server of its own. */
export function MailServerForm({ settings, onSaved }: { settings: ServerSettings; onSaved: () => void }) {
  const { t } = useTranslation('admin');
  const toForm = (s: ServerSettings) => ({
    useConfiguration: s.useConfiguration,
    host: s.host ?? '',
    port: s.port === null ? '' : String(s.port),
    security: s.security,
    username: s.username ?? '',
    password: s.password ?? '',
    fromAddress: s.fromAddress ?? '',
    fromName: s.fromName ?? '',
  });
  const [form, setForm] = useState(() => toForm(settings));
  const set =
    <K extends keyof typeof form>(key: K) =>
    (value: (typeof form)[K]) =>
      setForm({ ...form, [key]: value });
  const [saved, setSaved] = useState<string | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'mail-server');
  const own = !form.useConfiguration;

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    let answer: ServerSettings | undefined;
    const ok = await write.run(async () => {
      answer = await trpc.mailSettings.updateServer.mutate({
        ...form,
        port: form.port === '' ? null : Number(form.port),
      });
    });
    if (ok && answer) {
      setForm(toForm(answer));
      setSaved(t('saved'));
      onSaved();
    }
  }

  const { configuration } = settings;
  return (
    <section aria-labelledby="mail-server">
      <h2 id="mail-server">{t('mail.server')}</h2>
      <form className="admin-form" onSubmit={save} aria-labelledby="mail-server">
        <fieldset>
          <legend>{t('mail.source')}</legend>
          <label className="check">
            <input
              type="radio"
              name="mail-source"
              checked={form.useConfiguration}
              onChange={() => set('useConfiguration')(true)}
            />
            {configuration.smtp
              ? t('mail.useConfiguration', { smtp: configuration.smtp, from: configuration.from })
              : t('mail.useConfigurationNone')}
          </label>
          <label className="check">
            <input
              type="radio"
              name="mail-source"
              checked={own}
              onChange={() => set('useConfiguration')(false)}
            />
            {t('mail.useOwn')}
          </label>
        </fieldset>
        <TextField
          label={t('mail.host')}
          value={form.host}
          onChange={set('host')}
          path="host"
          problems={problems}
          required={own}
          autoComplete="off"
        />
        <TextField
          label={t('mail.port')}
          type="number"
          value={form.port}
          onChange={set('port')}
          path="port"
          problems={problems}
          hint={t('mail.portHint')}
        />
        <div className="admin-field">
          <label>
            {t('mail.security')}
            <select
              value={form.security}
              onChange={(event) => set('security')(event.target.value as ServerSettings['security'])}
              aria-describedby={problems.describedBy('security')}
            >
              {SECURITIES.map((security) => (
                <option key={security} value={security}>
                  {t(`mail.securities.${security}`)}
                </option>
              ))}
            </select>
          </label>
          <Problems id={problems.id('security')} messages={problems.at('security')} />
        </div>
        <TextField
          label={t('mail.username')}
          value={form.username}
          onChange={set('username')}
          path="username"
          problems={problems}
          autoComplete="off"
        />
        <TextField
          label={t('mail.password')}
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          path="password"
          problems={problems}
          hint={form.password === UNCHANGED ? t('users.passwordKept') : undefined}
        />
        <TextField
          label={t('mail.fromAddress')}
          type="email"
          value={form.fromAddress}
          onChange={set('fromAddress')}
          path="fromAddress"
          problems={problems}
          required={own}
        />
        <TextField
          label={t('mail.fromName')}
          value={form.fromName}
          onChange={set('fromName')}
          path="fromName"
          problems={problems}
        />
        <SaveBar label={t('save')} busy={write.busy} problems={problems} scope="mail-server" saved={saved} />
      </form>
    </section>
  );
}
