/**
 * Attachments in the web application (docs/attachments.md): the files of a concept shown in its view
 * (images as thumbnails, other files as downloads) and the editor's control of an ATTACHMENT field,
 * which uploads a chosen file at once and keeps its key as the field's value until the concept is saved.
 * Files come over REST with the session's token, so images are fetched and shown from object URLs.
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest, trpc } from '../api';
import type { Concept } from '../data';

type ConceptFile = Awaited<ReturnType<typeof trpc.attachments.ofConcept.query>>[number];

/** File names of keys seen in this tab (lists and uploads), so the editor can name its values. */
const knownNames = new Map<string, string>();

/** An object URL of a REST download, revoked when the component goes. */
function useBlobUrl(url: string | null): string | null {
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    let revoked = false;
    let made: string | null = null;
    rest(url.replace(/^\/api\/v4/, ''))
      .then((response) => response.blob())
      .then((blob) => {
        if (revoked) return;
        made = URL.createObjectURL(blob);
        setObjectUrl(made);
      })
      .catch(() => setObjectUrl(null));
    return () => {
      revoked = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return objectUrl;
}

/** Saves a REST download under its name (the server sends non-images as attachments anyway). */
async function download(file: ConceptFile) {
  const blob = await (await rest(file.url.replace(/^\/api\/v4/, ''))).blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = file.fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function Thumbnail({ file, caption }: { file: ConceptFile; caption: string }) {
  const { t } = useTranslation('concept');
  const src = useBlobUrl(file.thumbnailUrl);
  return (
    <figure className="attachment">
      <button
        type="button"
        className="attachment-open"
        aria-label={t('files.download', { name: file.fileName })}
        onClick={() => void download(file)}
      >
        {src ? (
          <img
            src={src}
            alt={file.fileName}
            width={file.width ?? undefined}
            height={file.height ?? undefined}
          />
        ) : (
          <span className="hint">{t('files.loading')}</span>
        )}
      </button>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** The files of a concept and of its terms, below its fields. */
export function ConceptFiles(props: { concept: Concept; fieldName: (oid: string) => string }) {
  const { t } = useTranslation('concept');
  const { concept, fieldName } = props;
  const [files, setFiles] = useState<ConceptFile[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a saved concept (new version) may name other files.
  useEffect(() => {
    let current = true;
    trpc.attachments.ofConcept
      .query({ id: concept.id })
      .then((list) => {
        for (const file of list) knownNames.set(file.key, file.fileName);
        if (current) setFiles(list);
      })
      .catch(() => current && setFiles([]));
    return () => {
      current = false;
    };
  }, [concept.id, concept.version]);
  if (files.length === 0) return null;
  const termName = (id: number | null) => concept.terms?.find((term) => term.id === id)?.name;
  const captionOf = (file: ConceptFile) => {
    const owner = termName(file.termId);
    const field = owner
      ? t('fields.of', { field: fieldName(file.fieldOid), owner })
      : fieldName(file.fieldOid);
    return t('files.caption', { field, name: file.fileName });
  };
  return (
    <section className="attachments" aria-label={t('files.heading')}>
      {files.map((file) =>
        file.thumbnailUrl ? (
          <Thumbnail
            key={`${file.fieldOid}-${file.termId}-${file.key}`}
            file={file}
            caption={captionOf(file)}
          />
        ) : (
          <p key={`${file.fieldOid}-${file.termId}-${file.key}`} className="attachment-file">
            <button type="button" onClick={() => void download(file)}>
              {t('files.download', { name: file.fileName })}
            </button>{' '}
            <span className="hint">{captionOf(file)}</span>
          </p>
        ),
      )}
    </section>
  );
}

/** Uploads a file for a dictionary's ATTACHMENT fields; answers its key. */
async function upload(dictionaryId: number, file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await rest(`/attachments?dictionary-id=${dictionaryId}`, { method: 'POST', body: form });
  const body = (await response.json()) as { key: string; fileName: string };
  knownNames.set(body.key, body.fileName);
  return body.key;
}

/** The editor's control of an ATTACHMENT field: its files, each replaceable and removable, and one to add. */
export function AttachmentInput(props: {
  dictionaryId: number;
  label: string;
  keys: string[];
  invalid: boolean;
  describedBy?: string;
  onChange: (keys: string[]) => void;
}) {
  const { t } = useTranslation('concept');
  const { dictionaryId, label, keys, invalid, describedBy, onChange } = props;
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const take = async (file: File | undefined, at: number) => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const key = await upload(dictionaryId, file);
      onChange(at < keys.length ? keys.map((k, i) => (i === at ? key : k)) : [...keys, key]);
    } catch (error) {
      setProblem(problemOf(error).message);
    } finally {
      setBusy(false);
    }
  };
  const nameOf = (key: string, index: number) => knownNames.get(key) ?? t('files.fileN', { n: index + 1 });
  return (
    <div className="attachment-input" aria-busy={busy || undefined}>
      {keys.map((key, index) => (
        <div key={key} className="field-value">
          <span className="value">{nameOf(key, index)}</span>
          <label className="file-button">
            {t('files.replace')}
            <input
              type="file"
              className="visually-hidden"
              aria-label={t('files.replaceN', { field: label, name: nameOf(key, index) })}
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              disabled={busy}
              onChange={(e) => void take(e.target.files?.[0], index)}
            />
          </label>
          <button
            type="button"
            className="danger"
            aria-label={t('files.removeN', { field: label, name: nameOf(key, index) })}
            onClick={() => onChange(keys.filter((_, k) => k !== index))}
          >
            {t('files.remove')}
          </button>
        </div>
      ))}
      <label className="file-button">
        {t('files.add')}
        <input
          type="file"
          className="visually-hidden"
          aria-label={t('files.addTo', { field: label })}
          aria-describedby={problem ? `${id}-problem` : describedBy}
          disabled={busy}
          onChange={(e) => void take(e.target.files?.[0], keys.length)}
        />
      </label>
      {busy && <p className="hint">{t('files.uploading')}</p>}
      {problem && (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
