import { lazy, type ComponentType } from 'react';
import { HomePage } from '../features/public/HomePage';
import type { RouteName } from './routes';

// Home is the first page most visitors see, so it ships in the entry chunk; every other page is
// its own chunk. A route whose feature is not built yet shows the "coming soon" page: replace its
// entry here when the feature lands.
const ComingSoonPage = lazy(() => import('../features/public/ComingSoonPage'));

export const PAGES: Record<RouteName, ComponentType> = {
  base: HomePage,
  login_result: lazy(() => import('../features/auth/ResultLoginPage')),
  login_portal: lazy(() => import('../features/auth/PortalLoginPage')),
  faq: lazy(() => import('../features/public/FaqPage')),
  contact: ComingSoonPage,
  contact_submitted: ComingSoonPage,
  reset_password: ComingSoonPage,
  reset_password_link_sent: ComingSoonPage,
  change_password_with_token: ComingSoonPage,
  password_changed: ComingSoonPage,
  portal_consent: lazy(() => import('../features/public/ConsentPage')),
  portal_regulations: lazy(() => import('../features/public/RegulationsPage')),
  copy_of_medical_clerking: lazy(() => import('../features/public/CopyOfMedicalClerkingPage')),
  screening: ComingSoonPage,
  survey: ComingSoonPage,
  survey_of_screening: ComingSoonPage,
  audit: ComingSoonPage,
  mammography_screenings: ComingSoonPage,
  referral: ComingSoonPage,
  profile_portal: ComingSoonPage,
  upload: ComingSoonPage,
  portal_audit: ComingSoonPage,
  order_screening_copy: ComingSoonPage,
  after_payment: ComingSoonPage,
  order_status: ComingSoonPage,
  buy_consultation: ComingSoonPage,
  success: ComingSoonPage,
};
