import { lazy, type ComponentType } from 'react';
import { HomePage } from '../features/public/HomePage';
import type { RouteName } from './routes';

// Home is the first page most visitors see, so it ships in the entry chunk; every other page is
// its own chunk. A route whose feature is not built yet shows the "coming soon" page: replace its
// entry here when the feature lands.
const ComingSoonPage = lazy(() => import('../features/public/ComingSoonPage'));
// audit and portal_audit are one screen, headed by its path.
const AuditPage = lazy(() => import('../features/audit/AuditPage'));
// The guest's result page and a patient's result page of one screening are one screen.
const ResultPage = lazy(() => import('../features/result/ResultPage'));
const SurveyPage = lazy(() => import('../features/survey/SurveyPage'));

export const PAGES: Record<RouteName, ComponentType> = {
  base: HomePage,
  login_result: lazy(() => import('../features/auth/ResultLoginPage')),
  login_portal: lazy(() => import('../features/auth/PortalLoginPage')),
  faq: lazy(() => import('../features/public/FaqPage')),
  contact: lazy(() => import('../features/contact/ContactPage')),
  contact_submitted: lazy(() => import('../features/contact/ContactSubmittedPage')),
  reset_password: lazy(() => import('../features/password-reset/ResetPasswordPage')),
  reset_password_link_sent: lazy(() => import('../features/password-reset/ResetLinkSentPage')),
  change_password_with_token: lazy(() => import('../features/password-reset/ChangePasswordWithTokenPage')),
  password_changed: lazy(() => import('../features/password-reset/PasswordChangedPage')),
  portal_consent: lazy(() => import('../features/public/ConsentPage')),
  portal_regulations: lazy(() => import('../features/public/RegulationsPage')),
  copy_of_medical_clerking: lazy(() => import('../features/public/CopyOfMedicalClerkingPage')),
  screening: ResultPage,
  survey: SurveyPage,
  survey_of_screening: SurveyPage,
  screening_of_patient: ResultPage,
  audit: AuditPage,
  mammography_screenings: ComingSoonPage,
  referral: ComingSoonPage,
  profile_portal: lazy(() => import('../features/profile/ProfilePage')),
  upload: ComingSoonPage,
  portal_audit: AuditPage,
  order_screening_copy: ComingSoonPage,
  after_payment: ComingSoonPage,
  order_status: ComingSoonPage,
  buy_consultation: ComingSoonPage,
  success: ComingSoonPage,
};
