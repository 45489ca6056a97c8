import express, { Router, type RequestHandler } from 'express';
import { appInfoRouter } from '../app-info/routes';
import { auditRouter } from '../audit/routes';
import { createAnonymousCsrf } from '../auth/anonymous-csrf';
import { csrfProtection } from '../auth/csrf';
import { requirePasswordChanged } from '../auth/gates';
import { passwordChangeRouter } from '../auth/password-change-routes';
import { authRouter } from '../auth/routes';
import { enforceSessionLifetime } from '../auth/session-lifetime';
import { contactRouter } from '../contact/routes';
import { contentRouter } from '../content/routes';
import type { ServerDeps } from '../deps';
import { isoRouter } from '../iso/routes';
import { geographyRouter } from '../geography/routes';
import { imagesRouter } from '../images/routes';
import { ordersRouter } from '../orders/routes';
import { createIsoService } from '../iso/service';
import { apiNotFound } from '../lib/error-handler';
import { refuseUnstorableText } from '../lib/unstorable-text';
import { passwordResetRouter } from '../password-reset/routes';
import { screeningsRouter } from '../screenings/routes';
import { surveyRouter } from '../survey/routes';
import { uploadRouter } from '../upload/routes';
import { userRouter } from '../user/routes';

/** Every JSON call of the portal is a small form; uploads stream through their own multipart reader (server/lib/multipart), not this parser. */
const JSON_BODY_LIMIT = '64kb';

/**
 * The patient API (`/api`): the browser's entry. Its chain proves who calls by a session cookie
 * (guest or patient), checks the CSRF token of every state-changing call and holds a patient who
 * must change her password; then the areas' routers answer. The provider API is another chain
 * over the same services, with API keys and no session.
 */
export function patientApi(deps: ServerDeps, sessions: RequestHandler): Router {
  const api = Router();
  api.use(noStore);
  api.use(express.json({ limit: JSON_BODY_LIMIT }));
  api.use(refuseUnstorableText);
  // Ahead of the session: answering it must not start one.
  api.use('/version', appInfoRouter(deps));
  api.use(sessions);
  api.use(enforceSessionLifetime(deps.config.session, deps.clock));
  const anonymousCsrf = createAnonymousCsrf(deps.config);
  api.use(csrfProtection(anonymousCsrf));
  api.use(requirePasswordChanged);

  api.use('/auth', authRouter(deps, anonymousCsrf));
  api.use('/auth', passwordChangeRouter(deps));
  api.use('/auth', passwordResetRouter(deps));
  api.use('/user', userRouter(deps));
  api.use('/screening/survey', surveyRouter(deps));
  // Ahead of the screenings area, whose /screening/:id would take /screening/provinces for an id.
  api.use(geographyRouter(deps));
  // The result page shows the disc image's status; the screenings area asks for it through this port.
  api.use(screeningsRouter({ ...deps, isoStatusOf: createIsoService(deps).statusOf }));
  api.use(ordersRouter({ ...deps, payments: deps.payments.provider }));
  api.use(contentRouter(deps));
  api.use('/iso', isoRouter(deps));
  api.use('/dicom', uploadRouter(deps));
  api.use('/images', imagesRouter(deps));
  api.use('/audit', auditRouter(deps));
  api.use('/contact', contactRouter(deps));
  api.use(apiNotFound);
  return api;
}

/** Personal data must never sit in a browser or proxy cache, so no API answer is cacheable. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};
