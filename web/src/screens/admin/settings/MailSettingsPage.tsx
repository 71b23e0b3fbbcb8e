import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formProblems, Problems, SaveBar, TextField, useWrite } from '../admin-forms';
import { MailServerForm } from './MailServerForm';

type ClientSettings = Awaited<ReturnType<typeof trpc.mailSettings.get.query>>;

/**
 * /admin/settings/mail: the client's sender name, reply-to address and signature, a test message, and
 * for system administrators the installation's SMTP server (docs/ui.md, "Mail settings").
 */
export default function MailSettingsPage() {
  const { t } = useTranslation('admin');
  const loaded = useLoaded(() => trpc.mailSettings.get.query(), 'mail');
  // Only system administrators may read the server settings: the server's refusal hides that part.
  const server = useLoaded(() => trpc.mailSettings.server.query().catch(() => null), 'mail-server');
  return (
    <>
      <h1>{t('mail.title')}</h1>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && <ClientForm settings={loaded.data} onSaved={loaded.reload} />}
      {loaded.data && <TestMessage />}
      {server.data && <MailServerForm settings={server.data} onSaved={loaded.reload} />}
    </>
  );
}

function ClientForm({ settings, onSaved }: { settings: ClientSettings; onSaved: () => void }) {
  const { t } = useTranslation('admin');
  const [form, setForm] = useState({
    senderName: settings.senderName ?? '',
    replyTo: settings.replyTo ?? '',
    signature: settings.signature ?? '',
  });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const [saved, setSaved] = useState<string | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'mail');

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    const ok = await write.run(() => trpc.mailSettings.update.mutate(form));
    if (ok) {
      setSaved(t('saved'));
      onSaved();
    }
  }

  return (
    <section aria-labelledby="mail-client">
      <h2 id="mail-client">{t('mail.client')}</h2>
      <p role="status">
        {settings.mailEnabled ? t('mail.sentAs', { sender: settings.sender }) : t('mail.noServer')}
      </p>
      <form className="admin-form" onSubmit={save} aria-labelledby="mail-client">
        <TextField
          label={t('mail.senderName')}
          value={form.senderName}
          onChange={set('senderName')}
          path="senderName"
          problems={problems}
          maxLength={255}
          hint={t('mail.senderNameHint')}
        />
        <TextField
          label={t('mail.replyTo')}
          type="email"
          value={form.replyTo}
          onChange={set('replyTo')}
          path="replyTo"
          problems={problems}
          maxLength={320}
        />
        <div className="admin-field">
          <label>
            {t('mail.signature')}
            <textarea
              rows={4}
              value={form.signature}
              maxLength={2000}
              onChange={(event) => set('signature')(event.target.value)}
              aria-invalid={problems.describedBy('signature') ? true : undefined}
              aria-describedby={problems.describedBy('signature')}
            />
          </label>
          <Problems id={problems.id('signature')} messages={problems.at('signature')} />
        </div>
        <SaveBar label={t('save')} busy={write.busy} problems={problems} scope="mail" saved={saved} />
      </form>
    </section>
  );
}

/** Sends a test message with the saved settings, to the given address or the caller's own. */
function TestMessage() {
  const { t } = useTranslation('admin');
  const [to, setTo] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'mail-test');

  async function send(event: FormEvent) {
    event.preventDefault();
    setSent(null);
    let answer: { to: string; from: string; server: string } | undefined;
    const ok = await write.run(async () => {
      answer = await trpc.mailSettings.sendTest.mutate({ to });
    });
    if (ok && answer) setSent(t('mail.testSent', answer));
  }

  return (
    <section aria-labelledby="mail-test">
      <h2 id="mail-test">{t('mail.test')}</h2>
      <form className="admin-form" onSubmit={send} aria-labelledby="mail-test">
        <TextField
          label={t('mail.testTo')}
          type="email"
          value={to}
          onChange={setTo}
          path="to"
          problems={problems}
          autoComplete="email"
          hint={t('mail.testToHint')}
        />
        <SaveBar
          label={t('mail.testSend')}
          busy={write.busy}
          problems={problems}
          scope="mail-test"
          saved={sent}
        />
      </form>
    </section>
  );
}
