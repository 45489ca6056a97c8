import { createElement, lazy, useState, type ComponentType } from 'react';
import { HomePage } from '../features/public/HomePage';
import type { RouteName } from '../routes/paths';

type PreloadablePage = ComponentType & { preload(): Promise<void> };

/**
 * A lazy page whose code RouteGuard fetches while it checks the session (preloadPage). Once
 * fetched it renders without suspending: a lazy component suspends at least once, and React then
 * holds the page back behind the Suspense fallback for its 300 ms reveal throttle.
 */
function preloadablePage(load: () => Promise<{ default: ComponentType }>): PreloadablePage {
  let loaded: ComponentType | undefined;
  const Lazy = lazy(load);
  function Page() {
    // Chosen once per mount: turning from the lazy wrapper to the loaded page would remount it.
    const [Component] = useState(() => loaded ?? Lazy);
    return createElement(Component);
  }
  Page.preload = () => load().then((module) => void (loaded = module.default));
  return Page;
}

// Home is the first page most visitors see, so it ships in the entry chunk; every other page is
// its own chunk. A public page's chunk is loaded before the app's first render when the HTML holds
// the page drawn at build time (main.tsx), so the app never swaps it for a loading state.
// audit and portal_audit are one screen, headed by its path.
const AuditPage = lazy(() => import('../features/audit/AuditPage'));
// The guest's result page and a patient's result page of one screening are one screen.
const ResultPage = preloadablePage(() => import('../features/result/ResultPage'));
const SurveyPage = lazy(() => import('../features/survey/SurveyPage'));
// A screening's images and an uploaded study are one viewer (cornerstone3D, its own lazy chunk).
const ViewerPage = lazy(() => import('../features/images/ViewerPage'));

export const PAGES: Record<RouteName, ComponentType> = {
  base: HomePage,
  login_result: preloadablePage(() => import('../features/auth/ResultLoginPage')),
  login_portal: preloadablePage(() => import('../features/auth/PortalLoginPage')),
  faq: preloadablePage(() => import('../features/public/FaqPage')),
  contact: preloadablePage(() => import('../features/contact/ContactPage')),
  contact_submitted: preloadablePage(() => import('../features/contact/ContactSubmittedPage')),
  reset_password: preloadablePage(() => import('../features/password-reset/ResetPasswordPage')),
  reset_password_link_sent: preloadablePage(() => import('../features/password-reset/ResetLinkSentPage')),
  change_password_with_token: preloadablePage(() => import('../features/password-reset/ChangePasswordWithTokenPage')),
  password_changed: preloadablePage(() => import('../features/password-reset/PasswordChangedPage')),
  portal_consent: preloadablePage(() => import('../features/public/ConsentPage')),
  portal_regulations: preloadablePage(() => import('../features/public/RegulationsPage')),
  copy_of_medical_clerking: preloadablePage(() => import('../features/public/CopyOfMedicalClerkingPage')),
  screening: ResultPage,
  survey: SurveyPage,
  survey_of_screening: SurveyPage,
  images_of_screening: ViewerPage,
  screening_of_patient: ResultPage,
  audit: AuditPage,
  mammography_screenings: lazy(() => import('../features/screenings/ScreeningsPage')),
  referral: lazy(() => import('../features/screenings/ReferralsPage')),
  profile_portal: lazy(() => import('../features/profile/ProfilePage')),
  upload: lazy(() => import('../features/upload/UploadPage')),
  uploaded_study: ViewerPage,
  portal_audit: AuditPage,
  order_screening_copy: lazy(() => import('../features/orders/copy-order/OrderCopyPage')),
  after_payment: lazy(() => import('../features/orders/payment-result/PaymentResultPage')),
  order_status: lazy(() => import('../features/orders/status/OrderStatusPage')),
  buy_consultation: lazy(() => import('../features/orders/checkout/CheckoutPage')),
  success: lazy(() => import('../features/orders/success/OrderSuccessPage')),
};

/** Starts fetching the code of page `name` if it can be fetched ahead (preloadablePage). */
export async function preloadPage(name: RouteName): Promise<void> {
  // A failure shows when the page renders: the lazy import then meets it and reports it.
  await (PAGES[name] as Partial<PreloadablePage>).preload?.().catch(() => undefined);
}
