import { Suspense } from 'react';
import { I18nProvider, RouterProvider } from 'react-aria-components';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { CookieConsent } from '../features/consent/CookieConsent';
import { PageErrorBoundary } from '../features/layout/PageErrorBoundary';
import { PageLoading } from '../features/layout/PageLoading';
import { Notifications } from '../features/notifications/Notifications';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt';
import { useLanguage } from '../lib/intl';
import { RouteGuard } from './guards';
import { PublicLayout } from './layouts/PublicLayout';
import { SignedInLayout } from './layouts/SignedInLayout';
import { PAGES } from './pages';
import { ROUTES, isPublicPath } from './routes';

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
              <Suspense fallback={<PageLoading />}>
                <AppRoutes />
              </Suspense>
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
