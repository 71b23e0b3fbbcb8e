import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import type { Notice } from '../admin-forms';
import {
  CheckField,
  ConfirmButton,
  ConflictDialog,
  formProblems,
  SaveBar,
  TextField,
  useWrite,
} from '../admin-forms';
import type { AdminPageProps } from '../admin-page';

type Client = Awaited<ReturnType<typeof trpc.clients.get.query>>;
const limit = (value: string) => (value.trim() === '' ? null : Number(value));

/** /admin/clients/:id (system administrators): a client's names, whether it is active, its limits, its API key. */
export default function ClientPage({ params }: AdminPageProps) {
  const { t } = useTranslation('admin');
  // Kept here: a save gives the form a new version, which starts it afresh.
  const [saved, setSaved] = useState<string | null>(null);
  const id = Number(params.id);
  const loaded = useLoaded(
    () => trpc.clients.get.query({ id, format: 'FULL', 'include-deleted': false }),
    String(id),
  );
  return (
    <>
      <h1>{t('clients.edit', { name: loaded.data?.name ?? '' })}</h1>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <ClientForm
          saved={saved}
          setSaved={setSaved}
          key={loaded.data.version}
          client={loaded.data}
          onSaved={loaded.reload}
        />
      )}
    </>
  );
}

function ClientForm({ client, onSaved, saved, setSaved }: { client: Client; onSaved: () => void } & Notice) {
  const { t } = useTranslation('admin');
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? '' : String(value);
  const [form, setForm] = useState({
    name: client.name ?? '',
    loginName: client.loginName ?? '',
    active: client.active ?? true,
    maxUsers: text(client.maxUsers),
    maxGuests: text(client.maxGuests),
    maxConcurrentUsers: text(client.maxConcurrentUsers),
  });
  const set =
    <K extends keyof typeof form>(key: K) =>
    (value: (typeof form)[K]) =>
      setForm({ ...form, [key]: value });
  const [apiKey, setApiKey] = useState<string | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'client');

  async function save(version = client.version) {
    setSaved(null);
    const ok = await write.run(() =>
      trpc.clients.update.mutate({
        id: client.id,
        version,
        format: 'ID',
        name: form.name,
        loginName: form.loginName,
        active: form.active,
        maxUsers: limit(form.maxUsers),
        maxGuests: limit(form.maxGuests),
        maxConcurrentUsers: limit(form.maxConcurrentUsers),
      }),
    );
    if (ok) {
      setSaved(t('saved'));
      onSaved();
    }
  }

  return (
    <form
      className="admin-form"
      aria-label={t('clients.edit', { name: client.name })}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save();
      }}
    >
      <TextField
        label={t('fields.name')}
        value={form.name}
        onChange={set('name')}
        required
        path="name"
        problems={problems}
      />
      <TextField
        label={t('clients.loginName')}
        value={form.loginName}
        onChange={set('loginName')}
        required
        path="loginName"
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
        label={t('clients.maxUsers')}
        type="number"
        value={form.maxUsers}
        onChange={set('maxUsers')}
        path="maxUsers"
        problems={problems}
        hint={t('clients.noLimit')}
      />
      <TextField
        label={t('clients.maxGuests')}
        type="number"
        value={form.maxGuests}
        onChange={set('maxGuests')}
        path="maxGuests"
        problems={problems}
      />
      <TextField
        label={t('clients.maxConcurrentUsers')}
        type="number"
        value={form.maxConcurrentUsers}
        onChange={set('maxConcurrentUsers')}
        path="maxConcurrentUsers"
        problems={problems}
      />
      <SaveBar label={t('save')} busy={write.busy} problems={problems} scope="client" saved={saved}>
        <ConfirmButton
          label={t('clients.newApiKey')}
          question={t('clients.newApiKeyQuestion')}
          confirm={t('clients.newApiKey')}
          onConfirm={() =>
            void write.run(async () => {
              const answer = await trpc.clients.generateNewApiKey.mutate({
                clientId: client.id,
                format: 'FULL',
              });
              setApiKey(answer.apiKey ?? null);
            })
          }
        />
      </SaveBar>
      {apiKey && (
        <p role="status">
          {t('clients.apiKeyShownOnce')} <code>{apiKey}</code>
        </p>
      )}
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
              (await trpc.clients.get.query({ id: client.id, format: 'FULL', 'include-deleted': false }))
                .version,
            )
          }
        />
      )}
    </form>
  );
}
