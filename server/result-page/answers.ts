import type { Request } from 'express';
import type { ResultPageAnswers } from '../../common/drawn-result-page';
import { contextOf } from '../auth/gates';
import { principalOf } from '../auth/session';
import { createSessionUserService, type SessionUserDeps } from '../auth/session-user';
import { createContentService, type ContentDeps } from '../content/service';
import { createScreeningService, type ScreeningDeps } from '../screenings/screening-service';

type ResultPageAnswersDeps = SessionUserDeps & ContentDeps & ScreeningDeps;

/**
 * What the result page's first render shows, read by the same services and with the same checks as
 * the API calls the app would make (`GET /api/auth/session`, `/api/banners`, `/api/screening/result`).
 */
export function createResultPageAnswers(deps: ResultPageAnswersDeps) {
  const users = createSessionUserService(deps);
  const content = createContentService(deps);
  const screenings = createScreeningService(deps);
  return {
    /**
     * Undefined for anyone but a signed-in result-portal patient: /screening is her page (a
     * patient-portal account is sent on to her list). Reading her result writes its RESULT audit
     * entry, as the app's call would, so it comes last, after everything else that may fail.
     */
    async of(req: Request): Promise<ResultPageAnswers | undefined> {
      const principal = principalOf(req);
      if (principal?.kind !== 'guest') return undefined;
      const [user, top, bottom] = await Promise.all([
        users.sessionUser(principal),
        content.banners('top-placement'),
        content.banners('bottom-placement'),
      ]);
      if (!user) return undefined;
      const result = await screenings.result(contextOf(req), undefined);
      return { user, result, banners: { 'top-placement': top, 'bottom-placement': bottom } };
    },
  };
}
