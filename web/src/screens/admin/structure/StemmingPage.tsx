import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { Choice, ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatNumber } from '../../../i18n';
import type { AdminPageProps } from '../admin-page';
import { DictionaryFrame } from './DictionaryFrame';
import type { FullDictionary } from './dictionary-data';
import { formProblems, jobDone, Problems, useWrite } from './kit';

type Setting = Awaited<ReturnType<typeof trpc.stemming.settings.query>>[number];
type Algorithms = Awaited<ReturnType<typeof trpc.stemming.languages.query>>['languages'];

/** /admin/dictionaries/:id/stemming: per language, the stemmer, protected words and overrides. */
export default function StemmingPage({ params }: AdminPageProps) {
  return (
    <DictionaryFrame id={params.id ?? ''} tab="stemming">
      {({ dictionary, canEdit }) => <Stemming dictionary={dictionary} canEdit={canEdit} />}
    </DictionaryFrame>
  );
}

function Stemming({ dictionary, canEdit }: { dictionary: FullDictionary; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const loaded = useLoaded(
    () =>
      Promise.all([trpc.stemming.settings.query({ id: dictionary.id }), trpc.stemming.languages.query({})]),
    `stemming-${dictionary.id}`,
  );
  const rebuild = useWrite();
  const [rebuilt, setRebuilt] = useState('');
  const languages = (dictionary.languages ?? []).filter((language) => !language.deleted);
  if (!loaded.data) return <ErrorMessage text={loaded.error?.message} />;
  const [settings, { languages: algorithms }] = loaded.data;
  return (
    <>
      {languages.length === 0 && <p>{t('languages.none')}</p>}
      {languages.map((language) => (
        <LanguageStemming
          key={language.code}
          dictionaryId={dictionary.id}
          code={language.code}
          name={language.name}
          setting={settings.find((s) => s.langCode === language.code)}
          algorithms={algorithms}
          canEdit={canEdit}
          onSaved={loaded.reload}
        />
      ))}
      {canEdit && (
        <div className="card structure-form">
          <p className="hint">{t('stemming.rebuildHint')}</p>
          <div className="actions">
            <button
              type="button"
              disabled={rebuild.busy}
              onClick={() =>
                void rebuild.run(async () => {
                  const changed = await jobDone(await trpc.stemming.rebuild.mutate({ id: dictionary.id }));
                  setRebuilt(
                    t('stemming.rebuilt', {
                      count: Number(changed) || 0,
                      formatted: formatNumber(Number(changed) || 0),
                    }),
                  );
                })
              }
            >
              {t('stemming.rebuild')}
            </button>
          </div>
          <p role="status">{rebuild.busy ? t('working') : rebuilt}</p>
          <Problems id="rebuild-problems" messages={formProblems(rebuild.problem, 'rebuild').general} />
        </div>
      )}
    </>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function LanguageStemming(props: {
  dictionaryId: number;
  code: string;
  name: string;
  setting: Setting | undefined;
  algorithms: Algorithms;
  canEdit: boolean;
  onSaved: () => void;
}) {
  const { t } = useTranslation('structure');
  const { setting, code } = props;
  const [algorithm, setAlgorithm] = useState(setting?.algorithm ?? '');
  const [words, setWords] = useState((setting?.protectedWords ?? []).join('\n'));
  const [overrides, setOverrides] = useState(
    Object.entries(setting?.overrides ?? {})
      .map(([word, stands]) => `${word} = ${stands}`)
      .join('\n'),
  );
  const [saved, setSaved] = useState('');
  const write = useWrite();
  const scope = `stemming-${code}`;
  const problems = formProblems(write.problem, scope);
  const usual = props.algorithms.find((a) => a.langCodes.includes(code))?.algorithm;
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    const map = Object.fromEntries(
      lines(overrides).map((line) => {
        const [word = '', stands = ''] = line.split('=').map((part) => part.trim());
        return [word, stands];
      }),
    );
    void write
      .run(() =>
        trpc.stemming.putSettings.mutate({
          id: props.dictionaryId,
          langCode: code,
          algorithm: algorithm || null,
          protectedWords: lines(words),
          overrides: map,
        }),
      )
      .then((ok) => {
        if (ok) {
          setSaved(t('stemming.saved', { name: props.name }));
          props.onSaved();
        }
      });
  };
  const described = (path: string) => ({
    'aria-invalid': problems.describedBy(path) ? true : undefined,
    'aria-describedby': problems.describedBy(path),
  });
  return (
    <form className="card structure-form" aria-labelledby={`${scope}-title`} onSubmit={save}>
      <h2 id={`${scope}-title`}>
        {props.name} ({code})
      </h2>
      <Choice
        label={t('stemming.algorithm')}
        value={algorithm}
        disabled={!props.canEdit}
        onChange={setAlgorithm}
        empty={usual ? t('stemming.usual', { algorithm: usual }) : t('stemming.noneKnown')}
        options={[
          { value: 'none', label: t('stemming.none') },
          ...props.algorithms.map((a) => ({ value: a.algorithm, label: a.algorithm })),
        ]}
        describedBy={problems.describedBy('algorithm')}
      />
      <Problems id={problems.id('algorithm')} messages={problems.at('algorithm')} />
      <label>
        {t('stemming.protected')}
        <textarea
          value={words}
          disabled={!props.canEdit}
          onChange={(e) => setWords(e.target.value)}
          {...described('protectedWords')}
        />
      </label>
      <Problems id={problems.id('protectedWords')} messages={problems.at('protectedWords')} />
      <label>
        {t('stemming.overrides')}
        <textarea
          value={overrides}
          disabled={!props.canEdit}
          onChange={(e) => setOverrides(e.target.value)}
          {...described('overrides')}
        />
      </label>
      <Problems id={problems.id('overrides')} messages={problems.at('overrides')} />
      {props.canEdit && (
        <div className="actions">
          <button type="submit" className="primary" disabled={write.busy}>
            {t('stemming.save', { name: props.name })}
          </button>
        </div>
      )}
      <p role="status">{saved}</p>
      <Problems id={`${scope}-problems`} messages={problems.general} />
    </form>
  );
}
