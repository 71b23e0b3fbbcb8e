import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton, ConflictDialog, formProblems, Problems, useWrite } from './kit';

/** An item of a dictionary that has a name and a version: a section, a domain, a view, a filter. */
export interface NamedItem {
  id: number;
  name?: string;
  version?: number;
}

/**
 * The items of one kind as cards: each with its details, renamed in place (a stale version opens the
 * 409 dialog) and deleted after a question. `kind` names the kind in the catalogue (sections, domains...).
 */
export function NamedItems<T extends NamedItem>(props: {
  kind: string;
  items: T[];
  canEdit: boolean;
  details?: (item: T) => ReactNode;
  /** Why an item cannot be deleted, or null when it can. */
  undeletable?: (item: T) => string | null;
  rename: (item: T, name: string, version: number | undefined) => Promise<unknown>;
  remove: (item: T) => Promise<unknown>;
  /** Reads the item again, for "save my version over it". */
  latestVersion: (item: T) => Promise<number | undefined>;
  onChanged: () => void;
  indent?: (item: T) => number;
}) {
  const { t } = useTranslation('structure');
  if (props.items.length === 0) return <p>{t(`${props.kind}.none`)}</p>;
  return (
    <ul className="structure-list" aria-label={t(`tabs.${props.kind}`)}>
      {props.items.map((item) => (
        <NamedItemCard key={item.id} item={item} {...props} />
      ))}
    </ul>
  );
}

function NamedItemCard<T extends NamedItem>(props: Parameters<typeof NamedItems<T>>[0] & { item: T }) {
  const { t } = useTranslation('structure');
  const { item, kind } = props;
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(item.name ?? '');
  const write = useWrite();
  const scope = `${kind}-${item.id}`;
  const problems = formProblems(write.problem, scope);
  const rename = async (version = item.version) => {
    if (await write.run(() => props.rename(item, name, version))) {
      setRenaming(false);
      props.onChanged();
    }
  };
  const why = props.undeletable?.(item) ?? null;
  const depth = props.indent?.(item) ?? 0;
  return (
    <li
      className="card"
      aria-label={item.name}
      style={depth ? { marginInlineStart: `${depth * 1.5}rem` } : undefined}
    >
      <h2>{item.name}</h2>
      {props.details?.(item)}
      {renaming ? (
        <form
          className="inline-form"
          aria-label={t('renameTitle', { name: item.name })}
          onSubmit={(event) => {
            event.preventDefault();
            void rename();
          }}
        >
          <label>
            {t('newName')}
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={255}
              aria-invalid={problems.describedBy('name') ? true : undefined}
              aria-describedby={problems.describedBy('name')}
            />
          </label>
          <button type="submit" className="primary" disabled={write.busy}>
            {t('save')}
          </button>
          <button type="button" onClick={() => setRenaming(false)}>
            {t('cancel')}
          </button>
          <Problems id={problems.id('name')} messages={problems.at('name')} />
        </form>
      ) : (
        props.canEdit && (
          <div className="actions">
            <button
              type="button"
              onClick={() => setRenaming(true)}
              aria-label={t('renameTitle', { name: item.name })}
            >
              {t('rename')}
            </button>
            {why === null ? (
              <ConfirmButton
                label={t('delete')}
                question={t('deleteQuestion', { name: item.name })}
                confirm={t('delete')}
                danger
                disabled={write.busy}
                onConfirm={() =>
                  void write.run(() => props.remove(item)).then((ok) => ok && props.onChanged())
                }
              />
            ) : (
              <span className="hint">{why}</span>
            )}
          </div>
        )
      )}
      <Problems id={`${scope}-problems`} messages={problems.general} />
      {write.conflict && (
        <ConflictDialog
          problem={write.conflict}
          onClose={write.clear}
          onTakeTheirs={() => {
            write.clear();
            setRenaming(false);
            props.onChanged();
          }}
          onOverwrite={async () => rename(await props.latestVersion(item))}
        />
      )}
    </li>
  );
}

/** A form adding one named item (with `extra` controls); the server's messages beside the name. */
export function AddNamed(props: {
  kind: string;
  create: (name: string) => Promise<unknown>;
  onCreated: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('structure');
  const [name, setName] = useState('');
  const write = useWrite();
  const scope = `add-${props.kind}`;
  const problems = formProblems(write.problem, scope);
  return (
    <form
      className="card structure-form"
      aria-labelledby={`${scope}-title`}
      onSubmit={async (event) => {
        event.preventDefault();
        if (await write.run(() => props.create(name))) {
          setName('');
          props.onCreated();
        }
      }}
    >
      <h2 id={`${scope}-title`}>{t(`${props.kind}.add`)}</h2>
      <label>
        {t('name')}
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={255}
          aria-invalid={problems.describedBy('name') ? true : undefined}
          aria-describedby={problems.describedBy('name')}
        />
      </label>
      <Problems id={problems.id('name')} messages={problems.at('name')} />
      {props.children}
      <div className="actions">
        <button type="submit" className="primary" disabled={write.busy}>
          {t(`${props.kind}.addButton`)}
        </button>
      </div>
      <Problems id={`${scope}-problems`} messages={problems.general} />
    </form>
  );
}
