import type { ReactNode } from 'react';
import { pathFor, type RouteName } from '../../routes/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { Link } from '../../components/ui/Link';
import { useT, type MessageKey } from '../../lib/intl';
import { CopyIcon, PatientIcon, ResultIcon } from './icons';
import { PageTitle } from '../../components/ui/PageTitle';

type Tile = { route: RouteName; title: MessageKey; description: MessageKey; icon: ReactNode };

const TILES: Tile[] = [
  { route: 'login_result', title: 'home.resultPortal.title', description: 'home.resultPortal.description', icon: <ResultIcon /> },
  { route: 'login_portal', title: 'home.patientPortal.title', description: 'home.patientPortal.description', icon: <PatientIcon /> },
  {
    route: 'copy_of_medical_clerking',
    title: 'home.copyOfClerking.title',
    description: 'home.copyOfClerking.description',
    icon: <CopyIcon />,
  },
];

/** base: the three ways in (spec section 2). */
export function HomePage() {
  const t = useT();
  useDocumentTitle(t('app.name'));
  return (
    <div className="home">
      <div className="card home__intro">
        <PageTitle>{t('home.title')}</PageTitle>
        <p className="home__lead">{t('home.lead')}</p>
      </div>
      <ul className="tiles">
        {TILES.map((tile) => (
          <li key={tile.route}>
            <Link href={pathFor(tile.route)} className="tile">
              {tile.icon}
              <span className="tile__title">{t(tile.title)}</span>
              <span className="tile__description">{t(tile.description)}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="card home__faq">
        <Link href={pathFor('faq')}>{t('home.faqLink')}</Link>
      </p>
    </div>
  );
}
