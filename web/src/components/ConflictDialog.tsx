import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import type { Concept, Dictionary } from '../data';
import type { Draft } from './concept-draft';
import { namesOf } from './concept-text';

function Version({
  title,
  fieldMap,
  terms,
  dictionary,
}: {
  title: string;
  fieldMap: Record<string, string[]>;
  terms: { name: string; languageCode: string }[];
  dictionary: Dictionary;
}) {
  const names = namesOf(dictionary);
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      <dl className="fields">
        {Object.entries(fieldMap).map(([oid, values]) => (
          <div key={oid} style={{ display: 'contents' }}>
            <dt>{names.field(oid)}</dt>
            <dd className="value">{values.join('\n')}</dd>
          </div>
        ))}
        {terms.map((term, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a plain listing of the two versions.
          <div key={index} style={{ display: 'contents' }}>
            <dt>{names.language(term.languageCode)}</dt>
            <dd className="value">{term.name}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The concept changed since editing began (409): both versions side by side, and a choice between
 * saving this edit over the other one and taking the other one.
 */
export function ConflictDialog(props: {
  message: string;
  mine: Draft;
  theirs: Concept;
  dictionary: Dictionary;
  onOverwrite: () => void;
  onTakeTheirs: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('concept');
  const { message, mine, theirs, dictionary } = props;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{t('conflict.title')}</Dialog.Title>
          <Dialog.Description>{message}</Dialog.Description>
          <div className="versions">
            <Version
              title={t('conflict.mine')}
              fieldMap={mine.fieldMap}
              terms={mine.terms}
              dictionary={dictionary}
            />
            <Version
              title={t('conflict.theirs', { version: theirs.version ?? '' })}
              fieldMap={theirs.fieldMap ?? {}}
              terms={theirs.terms ?? []}
              dictionary={dictionary}
            />
          </div>
          <div className="actions">
            <button type="button" className="primary" onClick={props.onOverwrite}>
              {t('conflict.overwrite')}
            </button>
            <button type="button" onClick={props.onTakeTheirs}>
              {t('conflict.takeTheirs')}
            </button>
            <Dialog.Close asChild>
              <button type="button">{t('conflict.back')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
