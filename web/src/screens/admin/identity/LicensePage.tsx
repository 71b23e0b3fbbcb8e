import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatDate, formatNumber } from '../../../i18n';
import { formProblems, Problems, SaveBar, useWrite } from '../admin-forms';

/** /admin/license (system administrators): the licence in force, and applying a new licence text. */
export default function LicensePage() {
  const { t } = useTranslation('admin');
  const license = useLoaded(() => trpc.license.get.query(), 'license');
  const [text, setText] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'license');
  const day = (ms: number) => formatDate(ms, { dateStyle: 'long' });

  async function apply(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    if (await write.run(() => trpc.license.applyText.mutate({ text }))) {
      setText('');
      setSaved(t('license.applied'));
      license.reload();
    }
  }

  return (
    <>
      <h1>{t('license.title')}</h1>
      <ErrorMessage text={license.error?.message} />
      {license.data === null && <p>{t('license.none')}</p>}
      {license.data && (
        <dl className="admin-facts">
          <dt>{t('license.licensee')}</dt>
          <dd>{license.data.licensee}</dd>
          <dt>{t('license.issued')}</dt>
          <dd>{day(license.data.issued)}</dd>
          <dt>{t('license.expires')}</dt>
          <dd>{day(license.data.expires)}</dd>
          <dt>{t('license.slots')}</dt>
          <dd>
            {license.data.availableUserSlots === null
              ? t('license.unlimited')
              : formatNumber(license.data.availableUserSlots)}
          </dd>
        </dl>
      )}
      <form className="admin-form" onSubmit={apply} aria-labelledby="license-apply">
        <h2 id="license-apply">{t('license.apply')}</h2>
        <label>
          {t('license.text')}
          <textarea
            rows={5}
            value={text}
            onChange={(event) => setText(event.target.value)}
            required
            aria-invalid={problems.describedBy('text') ? true : undefined}
            aria-describedby={problems.describedBy('text')}
          />
        </label>
        <Problems id={problems.id('text')} messages={problems.at('text')} />
        <SaveBar
          label={t('license.apply')}
          busy={write.busy}
          problems={problems}
          scope="license"
          saved={saved}
        />
      </form>
    </>
  );
}
