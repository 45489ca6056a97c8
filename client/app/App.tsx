import { Suspense } from 'react';
import { I18nProvider, RouterProvider } from 'react-aria-components';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { CookieConsent } from '../shell/consent/CookieConsent';
import { PageErrorBoundary } from '../shell/layout/PageErrorBoundary';
import { PageLoading } from '../shell/layout/PageLoading';
import { Notifications } from '../shell/notifications/Notifications';
import { UpdatePrompt } from '../shell/pwa/UpdatePrompt';
import { useLanguage } from '../lib/intl';
import { RouteGuard } from './guards';
import { KeptCopiesLock } from '../documents/KeptCopiesLock';
import { PublicLayout } from '../shell/layout/PublicLayout';
import { SignedInLayout } from '../shell/layout/SignedInLayout';
import { PAGES } from './pages';
import { ROUTES, isPublicPath } from '../routes/paths';

function AppRoutes() {
  return (
    <Switch>
      {ROUTES.map((route) => (
        <Route key={route.name} path={route.path} component={PAGES[route.name]} />
      ))}
      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}

export function App() {
  const [location, navigate] = useLocation();
  const lang = useLanguage();
  // Auth-free pages sit on the background image; pages of signed-in users are plain.
  const Layout = isPublicPath(location) ? PublicLayout : SignedInLayout;

  return (
    <I18nProvider locale={lang}>
      {/* react-aria links and menu items navigate through wouter instead of reloading the page */}
      <RouterProvider navigate={(path) => navigate(path)}>
        <Layout>
          <RouteGuard>
            <PageErrorBoundary resetKey={location}>
              {/* A page of her kept copies waits for her device PIN (issue 16). */}
              <KeptCopiesLock>
                <Suspense fallback={<PageLoading />}>
                  <AppRoutes />
                </Suspense>
              </KeptCopiesLock>
            </PageErrorBoundary>
          </RouteGuard>
        </Layout>
        <Notifications />
        <CookieConsent />
        <UpdatePrompt />
      </RouterProvider>
    </I18nProvider>
  );
}
