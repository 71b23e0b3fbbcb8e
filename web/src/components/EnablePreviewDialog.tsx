import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import type { trpc } from '../api';
import { formatNumber } from '../i18n';

export type EnablePreview = Awaited<ReturnType<typeof trpc.workflows.enablePreview.query>>;
type Audience = EnablePreview['audiences'][number];
type Counts = Audience['now'];

/**
 * Before a workflow is enabled (issue 36): per audience, the entries and terms seen now and once it
 * governs (GET /workflows/{id}/enable-preview), the audiences that would lose entries first and marked,
 * so that hiding the dictionary from its client administrators is a choice, not a surprise.
 */
export function EnablePreviewDialog(props: {
  name: string;
  preview: EnablePreview;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('workflow');
  const loses = (a: Audience) => a.after.terms < a.now.terms;
  const audiences = [...props.preview.audiences].sort((a, b) => Number(loses(b)) - Number(loses(a)));
  const losing = audiences.filter(loses);
  const label = (a: Audience) =>
    a.audience === 'GROUP'
      ? t('preview.group', { name: a.groupName ?? String(a.groupId) })
      : t(`preview.audience.${a.audience}`);
  const counts = (c: Counts) =>
    t('preview.counts', { concepts: formatNumber(c.concepts), terms: formatNumber(c.terms) });
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{t('preview.title', { name: props.name })}</Dialog.Title>
          <Dialog.Description>
            {losing.length
              ? t('preview.losing', { count: losing.length, formatted: formatNumber(losing.length) })
              : t('preview.nobodyLoses')}
          </Dialog.Description>
          <p>
            {t('preview.total', {
              concepts: formatNumber(props.preview.total.concepts),
              terms: formatNumber(props.preview.total.terms),
            })}
          </p>
          <div className="table-scroll">
            <table className="enable-preview">
              <caption>{t('preview.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('preview.who')}</th>
                  <th scope="col">{t('preview.now')}</th>
                  <th scope="col">{t('preview.after')}</th>
                </tr>
              </thead>
              <tbody>
                {audiences.map((a) => (
                  <tr key={`${a.audience} ${a.groupId ?? ''}`} className={loses(a) ? 'loses' : undefined}>
                    <th scope="row">{label(a)}</th>
                    <td>{counts(a.now)}</td>
                    <td>
                      {counts(a.after)}
                      {loses(a) && (
                        <strong className="loses-note">
                          {' '}
                          {t('preview.hidden', { terms: formatNumber(a.now.terms - a.after.terms) })}
                        </strong>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>{t('preview.scope')}</p>
          <div className="actions">
            <button type="button" className="primary" onClick={props.onConfirm}>
              {t('preview.confirm')}
            </button>
            <Dialog.Close asChild>
              <button type="button">{t('preview.cancel')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
