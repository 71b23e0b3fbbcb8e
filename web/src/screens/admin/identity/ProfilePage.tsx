import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { chooseLanguage, type InterfaceLanguage } from '../../../i18n';
import type { Notice } from '../admin-forms';
import { ConflictDialog, formProblems, SaveBar, TextField, useWrite } from '../admin-forms';

type Profile = Awaited<ReturnType<typeof trpc.profile.get.query>>['user'];

/** The server keeps three-letter codes; these are the interface languages the web app has. */
const LANGUAGES: { code: string; ui: InterfaceLanguage; name: string }[] = [
  { code: 'eng', ui: 'en', name: 'English' },
  { code: 'isl', ui: 'is', name: 'Íslenska' },
  { code: 'deu', ui: 'de', name: 'Deutsch' },
];

/** /admin/profile: one's own name, e-mail, title and interface language. */
export default function ProfilePage() {
  const { t } = useTranslation('admin');
  // Kept here: a save gives the form a new version, which starts it afresh.
  const [saved, setSaved] = useState<string | null>(null);
  const loaded = useLoaded(() => trpc.profile.get.query().then((answer) => answer.user), 'profile');
  return (
    <>
      <h1>{t('profile.title')}</h1>
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <ProfileForm
          saved={saved}
          setSaved={setSaved}
          key={loaded.data.version}
          profile={loaded.data}
          onSaved={loaded.reload}
        />
      )}
    </>
  );
}

function ProfileForm({
  profile,
  onSaved,
  saved,
  setSaved,
}: { profile: Profile; onSaved: () => void } & Notice) {
  const { t } = useTranslation('admin');
  const [fullName, setFullName] = useState(profile.fullName ?? '');
  const [email, setEmail] = useState(profile.email ?? '');
  const [title, setTitle] = useState(profile.title ?? '');
  const [language, setLanguage] = useState(profile.language ?? '');
  const write = useWrite();
  const problems = formProblems(write.problem, 'profile');

  async function save(version: number) {
    setSaved(null);
    const ok = await write.run(() =>
      trpc.profile.update.mutate({
        user: {
          version,
          fullName: fullName || null,
          email: email || null,
          title: title || null,
          language: language || null,
        },
      }),
    );
    if (!ok) return;
    const ui = LANGUAGES.find((choice) => choice.code === language)?.ui;
    if (ui) await chooseLanguage(ui);
    setSaved(t('saved'));
    onSaved();
  }

  return (
    <form
      className="admin-form"
      aria-label={t('profile.title')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save(profile.version);
      }}
    >
      <p>
        {t('profile.username')}: <strong>{profile.username}</strong>
      </p>
      <TextField
        label={t('fields.fullName')}
        value={fullName}
        onChange={setFullName}
        path="user.fullName"
        problems={problems}
      />
      <TextField
        label={t('fields.email')}
        type="email"
        value={email}
        onChange={setEmail}
        path="user.email"
        problems={problems}
      />
      <TextField
        label={t('fields.title')}
        value={title}
        onChange={setTitle}
        path="user.title"
        problems={problems}
      />
      <label>
        {t('profile.language')}
        <select value={language} onChange={(event) => setLanguage(event.target.value)}>
          <option value="">{t('profile.languageDefault')}</option>
          {LANGUAGES.map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.name}
            </option>
          ))}
        </select>
      </label>
      <SaveBar label={t('save')} busy={write.busy} problems={problems} scope="profile" saved={saved} />
      {write.conflict && (
        <ConflictDialog
          problem={write.conflict}
          onClose={write.clear}
          onTakeTheirs={() => {
            write.clear();
            onSaved();
          }}
          onOverwrite={async () => save((await trpc.profile.get.query()).user.version)}
        />
      )}
    </form>
  );
}
