import { useTranslation } from 'react-i18next';
import { AreaDecisions } from './AreaDecisions';
import { AreaEntries } from './AreaEntries';
import { AreaList } from './AreaList';
import { EntryReview } from './EntryReview';
import { stagingRoute } from './staging-routes';
import './staging.css';

/**
 * Staging areas (issue 41, docs/staging.md): the areas, an area's entries, one entry's review. Loaded on
 * demand with its own catalogue (`staging`). The server decides every call; the screens offer the
 * reviewer's controls where the area or entry says `mayReview`.
 */
export default function StagingScreen({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useTranslation('staging');
  const route = stagingRoute(path);
  switch (route.page) {
    case 'areas':
      return <AreaList query={query} />;
    case 'area':
      return <AreaEntries key={route.id} id={route.id} query={query} />;
    case 'decisions':
      return <AreaDecisions key={route.id} id={route.id} query={query} />;
    case 'entry':
      return <EntryReview key={route.id} id={route.id} />;
    default:
      return <h1>{t('noSuchPage')}</h1>;
  }
}
