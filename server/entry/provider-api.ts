import { Router, type RequestHandler } from 'express';
import { contentEndpoints } from '../content/provider-endpoints';
import type { ServerDeps } from '../deps';
import { dicomwebOpenApiPaths } from '../dicomweb/openapi';
import { dicomwebRouter } from '../dicomweb/routes';
import { intakeEndpoints } from '../intake/endpoints';
import { apiNotFound } from '../lib/error-handler';
import { invitationEndpoints } from '../notices/invitation-endpoints';
import { createResultNotices } from '../notices/result-ready';
import { orderEndpoints } from '../orders/provider-endpoints';
import { authenticateApiKey } from '../provider/authenticate';
import { apiDocsPage } from '../provider/docs-page';
import { endpointsRouter, type ProviderEndpoint } from '../provider/endpoint';
import { providerOpenApiDocument, type ExtraPaths } from '../provider/openapi';
import { staffAuditTrail } from '../provider/staff-audit';
import { surveyEndpoints } from '../survey/provider-endpoints';

/**
 * The provider API (`/api/provider/v1`): the entry of the provider's systems (RIS, PACS) and
 * staff tools. Its chain proves who calls by API key (`Authorization: Bearer`), never by a
 * session cookie, and writes every call to the staff audit; then the areas' endpoints answer
 * through the same services the patient API uses. The OpenAPI document is generated from the
 * endpoint definitions, so what is served and what is described are one list.
 */
export function providerApi(deps: ServerDeps): Router {
  // A screening whose descriptions become completed tells its patient, once (server/notices).
  const { resultReady } = createResultNotices(deps);
  const endpoints: ProviderEndpoint[] = [
    ...intakeEndpoints({ ...deps, onResultReady: resultReady }),
    ...orderEndpoints({ ...deps, payments: deps.payments.provider }),
    ...contentEndpoints(deps),
    ...invitationEndpoints(deps),
    ...surveyEndpoints(deps),
  ];
  const extraPaths: ExtraPaths = { ...dicomwebOpenApiPaths };
  const document = providerOpenApiDocument(endpoints, extraPaths, deps.config.version);

  const api = Router();
  api.use(noStore);
  // The description holds no secret and no data: readable without a key, like any vendor's API reference.
  api.get('/openapi.json', (_req, res) => void res.json(document));
  api.get('/docs', apiDocsPage(document));
  api.use(staffAuditTrail(deps));
  api.use(authenticateApiKey(deps));
  api.use(endpointsRouter(deps, endpoints));
  api.use('/dicomweb', dicomwebRouter(deps));
  api.use(apiNotFound);
  return api;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};
