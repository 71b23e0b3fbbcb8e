import { useTranslation } from 'react-i18next';

/** The file's transactions of a concept or term, as the history answers them (docs/history.md). */
export type FileTransactions = {
  createdBy: string | null;
  createdAt: number | null;
  changedBy: string | null;
  changedAt: number | null;
};

export type Provenance = {
  concept: FileTransactions | null;
  terms: (FileTransactions & { termId: number })[];
};

/** A file's date as the file gave it: a calendar day, not shifted by the reader's time zone. */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Who created and last changed the concept and its terms according to an imported file (TBX
 * transactions), shown under the import's history item beside the user who imported it.
 */
export function HistoryProvenance(props: {
  provenance: Provenance | null | undefined;
  termNames: Map<number, string>;
}) {
  const { t } = useTranslation('concept');
  const { provenance, termNames } = props;
  if (!provenance || (!provenance.concept && provenance.terms.length === 0)) return null;

  const sentences = (of: FileTransactions) =>
    (['created', 'changed'] as const).flatMap((kind) => {
      const who = kind === 'created' ? of.createdBy : of.changedBy;
      const at = kind === 'created' ? of.createdAt : of.changedAt;
      if (!who && at === null) return [];
      const variant = !who ? 'NoWho' : at === null ? 'NoDate' : '';
      return [t(`history.provenance.${kind}${variant}`, { who, date: at === null ? '' : day(at) })];
    });

  const lines = [
    ...(provenance.concept ? sentences(provenance.concept) : []),
    ...provenance.terms.flatMap((term) =>
      sentences(term).map((text) =>
        t('history.provenance.term', {
          term: termNames.get(term.termId) ?? t('history.termN', { id: term.termId }),
          text,
        }),
      ),
    ),
  ];
  return (
    <ul className="history-provenance" aria-label={t('history.provenance.label')}>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
