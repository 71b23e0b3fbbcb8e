import { useTranslation } from 'react-i18next';
import { AssignmentPage } from './AssignmentPage';
import { CandidateReview } from './CandidateReview';
import { ProjectForm } from './ProjectForm';
import { ProjectList } from './ProjectList';
import { ProjectPage } from './ProjectPage';
import { projectRoute } from './project-routes';
import './projects.css';

/**
 * Projects (issue 40, docs/projects.md): the list, a new project, a project's page, its candidate review
 * and an assignment's page. Loaded on demand with its own catalogue (`project`). The server decides every
 * call; the screens offer a manager's controls only where the project says `manageable`.
 */
export default function ProjectsScreen({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useTranslation('project');
  const route = projectRoute(path);
  switch (route.page) {
    case 'list':
      return <ProjectList query={query} />;
    case 'new':
      return <ProjectForm />;
    case 'project':
      return <ProjectPage id={route.id} />;
    case 'candidates':
      return <CandidateReview id={route.id} query={query} />;
    case 'assignment':
      return <AssignmentPage id={route.id} />;
    default:
      return <h1>{t('noSuchPage')}</h1>;
  }
}
