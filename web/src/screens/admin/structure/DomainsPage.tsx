import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { Choice, ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatNumber } from '../../../i18n';
import type { AdminPageProps } from '../admin-page';
import { DictionaryFrame } from './DictionaryFrame';
import { formProblems, Problems, useWrite } from './kit';
import { AddNamed, NamedItems } from './NamedItems';

type Domain = Awaited<ReturnType<typeof trpc.domains.list.query>>['content'][number];
const PRESENTATIONS = ['FLAT', 'HIERARCHICAL', 'HORIZONTAL'] as const;

/** /admin/dictionaries/:id/domains: the subject-field tree of a dictionary and how it is shown. */
export default function DomainsPage({ params }: AdminPageProps) {
  return (
    <DictionaryFrame id={params.id ?? ''} tab="domains">
      {({ dictionary, canEdit }) => <Domains dictionaryId={dictionary.id} canEdit={canEdit} />}
    </DictionaryFrame>
  );
}

/** Parents before their children, each with its depth. */
function treeOrder(domains: Domain[]): { domain: Domain; depth: number }[] {
  const ordered: { domain: Domain; depth: number }[] = [];
  const ids = new Set(domains.map((d) => d.id));
  const visit = (parent: number | null, depth: number) => {
    for (const domain of domains.filter((d) => (d.parentDomainId ?? null) === parent)) {
      ordered.push({ domain, depth });
      visit(domain.id, depth + 1);
    }
  };
  visit(null, 0);
  // A domain whose parent is not in the list still shows, at the top.
  for (const domain of domains) {
    if (domain.parentDomainId && !ids.has(domain.parentDomainId)) {
      ordered.push({ domain, depth: 0 });
    }
  }
  return ordered;
}

function Domains({ dictionaryId, canEdit }: { dictionaryId: number; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const [parent, setParent] = useState('');
  const loaded = useLoaded(
    () =>
      trpc.domains.list
        .query({
          'dictionary-id': dictionaryId,
          format: 'FULL',
          size: 2000,
          page: 0,
          'include-deleted': false,
        })
        .then((page) => treeOrder(page.content)),
    String(dictionaryId),
  );
  const tree = loaded.data ?? [];
  const depth = new Map(tree.map((entry) => [entry.domain.id, entry.depth]));
  return (
    <>
      <Presentation dictionaryId={dictionaryId} canEdit={canEdit} />
      <ErrorMessage text={loaded.error?.message} />
      {loaded.data && (
        <NamedItems
          kind="domains"
          items={tree.map((entry) => entry.domain)}
          canEdit={canEdit}
          indent={(domain) => depth.get(domain.id) ?? 0}
          details={(domain) => (
            <p>
              {t('concepts', {
                count: domain.numberOfConcepts ?? 0,
                formatted: formatNumber(domain.numberOfConcepts ?? 0),
              })}
            </p>
          )}
          undeletable={(domain) => (domain.children?.length ? t('domains.undeletable') : null)}
          rename={(domain, name, version) =>
            trpc.domains.patch.mutate({ id: domain.id, version, name, format: 'ID' })
          }
          remove={(domain) => trpc.domains.delete.mutate({ id: domain.id })}
          latestVersion={async (domain) =>
            (await trpc.domains.get.query({ id: domain.id, format: 'FULL', 'include-deleted': false }))
              .version
          }
          onChanged={loaded.reload}
        />
      )}
      {canEdit && (
        <AddNamed
          kind="domains"
          create={(name) =>
            trpc.domains.create.mutate({
              name,
              dictionaryId,
              parentDomainId: parent ? Number(parent) : null,
              format: 'ID',
            })
          }
          onCreated={loaded.reload}
        >
          <Choice
            label={t('domains.parent')}
            value={parent}
            onChange={setParent}
            empty={t('domains.topLevel')}
            options={tree.map(({ domain, depth: level }) => ({
              value: String(domain.id),
              label: `${'– '.repeat(level)}${domain.name ?? ''}`,
            }))}
          />
        </AddNamed>
      )}
    </>
  );
}

function Presentation({ dictionaryId, canEdit }: { dictionaryId: number; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const config = useLoaded(() => trpc.domains.getConfig.query({ dictionaryId }), `config-${dictionaryId}`);
  const write = useWrite();
  const problems = formProblems(write.problem, 'presentation');
  if (!config.data) return null;
  return (
    <div className="card structure-form">
      <Choice
        label={t('domains.presentation')}
        value={config.data.presentation}
        disabled={!canEdit || write.busy}
        onChange={(presentation) =>
          void write
            .run(() =>
              trpc.domains.setConfig.mutate({
                dictionaryId,
                presentation: presentation as (typeof PRESENTATIONS)[number],
              }),
            )
            .then((ok) => ok && config.reload())
        }
        options={PRESENTATIONS.map((value) => ({ value, label: t(`domains.presentations.${value}`) }))}
        describedBy={problems.general.length ? 'presentation-problems' : undefined}
      />
      <Problems id="presentation-problems" messages={problems.general} />
    </div>
  );
}
