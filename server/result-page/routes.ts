import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { enforceSessionLifetime } from '../auth/session-lifetime';
import type { ServerDeps } from '../deps';
import { AppError } from '../lib/errors';
import { errorForLog, setLoggedPath } from '../lib/logger';
import { createIsoService } from '../iso/service';
import { createResultPageAnswers } from './answers';
import type { ResultPageDrawing } from './drawing';

/** The guest's result page, `screening` in client/routes/paths.ts (any letter case, as the app's router matches it). */
const RESULT_PAGE_PATH = '/screening';

/**
 * Her result page with her result in it, drawn for this request: a phone paints it as soon as the
 * HTML arrives, instead of after the app's code, the session check and her result have come one
 * after another (issue 16, Lighthouse). Only for a signed-in result-portal patient who answered the
 * cookie dialog; every other request, and any failure, goes on to the plain index.html
 * (server/lib/static-client.ts), which the app fills as before.
 */
export function drawnResultPageRouter(deps: ServerDeps, sessions: RequestHandler, drawing: ResultPageDrawing): Router {
  const answers = createResultPageAnswers({ ...deps, isoStatusOf: createIsoService(deps).statusOf });
  const router = Router();
  router.get(
    RESULT_PAGE_PATH,
    // HEAD asks for headers only: reading (and auditing) her result for it would be a read nobody saw.
    (req, _res, next) => next(req.method === 'GET' ? undefined : 'router'),
    orPlainPage(sessions),
    orPlainPage(enforceSessionLifetime(deps.config.session, deps.clock)),
    async (req, res, next) => {
      try {
        const renderer = await drawing.renderer;
        if (!renderer?.cookieDialogAnswered(req.headers.cookie ?? '')) return next();
        const found = await answers.of(req);
        if (!found) return next();
        const html = drawing.page(renderer.render(req.path, found), found);
        setLoggedPath(res, `${RESULT_PAGE_PATH} (drawn)`);
        await sendPersonalPage(req, res, html);
      } catch (error) {
        // Not hers to see (refused as the API refuses it) or not drawable: the app's own page.
        if (!(error instanceof AppError)) req.log.warn({ err: errorForLog(error) }, 'the result page could not be drawn');
        if (!res.headersSent) next();
      }
    },
  );
  return router;
}

/** A session that cannot be read (the database is away) leaves the page to the plain index.html, never an error page. */
function orPlainPage(handler: RequestHandler): RequestHandler {
  return (req, res, next) => handler(req, res, (error?: unknown) => next(error === undefined ? undefined : 'router'));
}

/**
 * Like an API answer with her data, never stored by the browser or anything between (the plain
 * index.html is only revalidated). Compressed, unlike API answers: nothing in the page is chosen by
 * the requester (no part of the URL is echoed), so its length cannot leak her data to one who
 * guesses at it (BREACH needs both in one answer).
 */
async function sendPersonalPage(req: Request, res: Response, html: string): Promise<void> {
  const encoding = (['br', 'gzip'] as const).find((name) => req.acceptsEncodings(name) === name);
  const body = encoding ? await compress[encoding](Buffer.from(html)) : Buffer.from(html);
  res.set('Cache-Control', 'no-store').type('html').vary('Accept-Encoding');
  if (encoding) res.setHeader('Content-Encoding', encoding);
  // Sent as it is, with no ETag: a page that is never stored is never revalidated.
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * Brotli at quality 10 (some 20 ms, in zlib's thread pool): the page then fits TCP's first
 * congestion window (10 segments, about 14 KB with the headers), where quality 5 overflows it by
 * a few hundred bytes and costs a phone one more round trip before it can paint.
 */
const compress = {
  br: (source: Buffer) =>
    promisify(brotliCompress)(source, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
    }),
  gzip: (source: Buffer) => promisify(gzip)(source, { level: 9 }),
};
