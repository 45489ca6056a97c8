import { lazy, Suspense, useMemo } from 'react';
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import { useLocation, useSearch } from 'wouter';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/intl';
import { OfflineListsMark } from '../../documents/offline-lists';
import { useDeviceOwner } from '../../documents/use-device-owner';
import { ReferralsView } from './ReferralsView';
import { ScreeningsList } from './ScreeningsList';
import '../../documents/documents.css';
import './referrals.css';
import './screenings.css';
import { PageTitle } from '../../components/ui/PageTitle';

// With the device database's code, loaded after the page's own: her choice to keep copies here.
const SavedCopies = lazy(() => import('../../documents/SavedCopies').then((module) => ({ default: module.SavedCopies })));

type TabId = 'screenings' | 'referrals';

/** The open tab is in the URL (`?tab=referrals`) like the filters, so a reload keeps it. */
function useTab(): [TabId, (tab: TabId) => void] {
  const searchText = useSearch();
  const [location, navigate] = useLocation();
  const tab: TabId = new URLSearchParams(searchText).get('tab') === 'referrals' ? 'referrals' : 'screenings';
  const select = useMemo(
    () => (next: TabId) => {
      const search = new URLSearchParams(searchText);
      if (next === 'referrals') search.set('tab', next);
      else search.delete('tab');
      const query = search.toString();
      navigate(query ? `${location}?${query}` : location, { replace: true });
    },
    [searchText, location, navigate],
  );
  return [tab, select];
}

/**
 * mammography_screenings (/screenings): the patient's screenings and, in a second tab, her
 * referrals. When she chose to keep copies on this device (the switch below them), the installed
 * app shows both offline as last seen, marked as such, once her PIN opened them.
 */
export default function ScreeningsPage() {
  const t = useT();
  useDocumentTitle(t('screenings.title'));
  const [tab, selectTab] = useTab();
  const ownerKey = useDeviceOwner();

  return (
    <article className="screenings-page">
      <PageTitle className="screenings-page__title">{t('screenings.title')}</PageTitle>
      <OfflineListsMark />
      <Tabs
        selectedKey={tab}
        onSelectionChange={(key: Key) => selectTab(key === 'referrals' ? 'referrals' : 'screenings')}
        className="tabs"
      >
        <TabList aria-label={t('screenings.tabs.label')} className="tabs__list">
          <Tab id="screenings" className="tabs__tab">
            {t('screenings.tabs.screenings')}
          </Tab>
          <Tab id="referrals" className="tabs__tab">
            {t('referrals.title')}
          </Tab>
        </TabList>
        <TabPanel id="screenings" className="tabs__panel">
          <ScreeningsList />
        </TabPanel>
        <TabPanel id="referrals" className="tabs__panel">
          <ReferralsView />
        </TabPanel>
      </Tabs>
      {ownerKey && (
        <Suspense fallback={null}>
          <SavedCopies ownerKey={ownerKey} />
        </Suspense>
      )}
    </article>
  );
}
