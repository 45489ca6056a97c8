import { Router, type Request, type RequestHandler } from 'express';
import type { Config } from '../config';
import type { ServerDeps } from '../deps';
import { notFound } from '../lib/errors';
import { providerContextOf, scopeGate } from '../provider/authenticate';
import { PROVIDER_API_PREFIX } from '../provider/openapi';
import { noteStaffAction } from '../provider/staff-audit';
import { DICOM_JSON } from './dicom-json';
import { instanceResult, isUid, pageOf, seriesResult, studyFilterOf, studyResult } from './qido';
import { stowBoundary, withReceivedParts } from './receive';
import { findInstances, searchSeries, searchStudies } from './repo';
import { storeInstances } from './stow';
import { instanceMetadata, streamInstances } from './wado';

type UidParams = { study: string; series?: string; instance?: string };

/** The UIDs of the path, already checked by the router's param handlers. */
function uidsOf(req: Request): UidParams {
  return req.params as unknown as UidParams;
}

export type DicomwebDeps = Pick<ServerDeps, 'db' | 'storage' | 'logger'> & { config: Pick<Config, 'publicUrl' | 'upload'> };

/** Where the router is mounted under the provider API (server/entry/provider-api.ts). */
const DICOMWEB_PATH = '/dicomweb';

/** The staff audit names the operation and the study; a refusal by scope is named too. */
function operation(action: string): RequestHandler {
  return (req, res, next) => {
    const study = typeof req.params.study === 'string' ? req.params.study : undefined;
    noteStaffAction(res, { action, objectType: 'study', objectId: study });
    next();
  };
}

/**
 * DICOMweb over the stored images (PS3.18), for the provider's PACS and viewers: STOW-RS stores a
 * screening's images (found by accession number), QIDO-RS searches and WADO-RS retrieves both the
 * screening images and what patients uploaded themselves, so those reach a radiologist. A study
 * UID does not name a patient: where two patients have the same one, both are answered.
 */
export function dicomwebRouter(deps: DicomwebDeps): Router {
  const router = Router();
  const url = (path: string) => `${deps.config.publicUrl}${PROVIDER_API_PREFIX}${DICOMWEB_PATH}${path}`;
  const read = scopeGate('images:read');

  for (const name of ['study', 'series', 'instance']) {
    // A path segment that cannot be a UID names nothing.
    router.param(name, (_req, _res, next, value: string) => next(isUid(value) ? undefined : notFound()));
  }

  router.post('/studies', operation('stowStudies'), scopeGate('images:write'), async (req, res) => {
    const boundary = stowBoundary(req.get('content-type'));
    const { maxFileBytes, maxFilesPerRequest, maxRequestBytes } = deps.config.upload;
    const limits = { maxPartBytes: maxFileBytes, maxParts: maxFilesPerRequest, maxRequestBytes };
    const { apiKeyId } = providerContextOf(req, res).caller;
    const outcome = await withReceivedParts(req, boundary, deps.storage.incomingDir, limits, (parts) =>
      storeInstances(deps, { apiKeyId }, parts, url),
    );
    if (outcome.studies.length > 0) noteStaffAction(res, { objectId: outcome.studies.join(',').slice(0, 500) });
    res.status(outcome.status).type(DICOM_JSON).send(JSON.stringify(outcome.body));
  });

  router.get('/studies', operation('searchStudies'), read, async (req, res) => {
    const rows = await searchStudies(deps.db, studyFilterOf(req.query), pageOf(req.query));
    res.type(DICOM_JSON).send(JSON.stringify(rows.map((row) => studyResult(row, url))));
  });

  router.get('/studies/:study/series', operation('searchSeries'), read, async (req, res) => {
    const rows = await searchSeries(deps.db, uidsOf(req).study, pageOf(req.query));
    res.type(DICOM_JSON).send(JSON.stringify(rows.map((row) => seriesResult(row, url))));
  });

  router.get('/studies/:study/series/:series/instances', operation('searchInstances'), read, async (req, res) => {
    const rows = await findInstances(deps.db, uidsOf(req), pageOf(req.query));
    res.type(DICOM_JSON).send(JSON.stringify(rows.map((row) => instanceResult(row, url))));
  });

  const retrieve: RequestHandler = async (req, res) => {
    const rows = await findInstances(deps.db, uidsOf(req));
    if (rows.length === 0) throw notFound();
    try {
      await streamInstances(res, deps.storage, rows);
    } catch (error) {
      // Once the first part is sent, a failure can only cut the answer short.
      if (!res.headersSent) throw error;
      req.log.error({ err: error }, 'WADO-RS answer cut short');
      res.destroy();
    }
  };
  router.get('/studies/:study', operation('retrieveStudy'), read, retrieve);
  router.get('/studies/:study/series/:series', operation('retrieveSeries'), read, retrieve);
  router.get('/studies/:study/series/:series/instances/:instance', operation('retrieveInstance'), read, retrieve);

  router.get(
    '/studies/:study/series/:series/instances/:instance/metadata',
    operation('retrieveInstanceMetadata'),
    read,
    async (req, res) => {
      const rows = await findInstances(deps.db, uidsOf(req));
      if (rows.length === 0) throw notFound();
      const metadata = await Promise.all(rows.map((row) => instanceMetadata(deps.storage, row)));
      res.type(DICOM_JSON).send(JSON.stringify(metadata));
    },
  );

  return router;
}
