import type { RequestHandler, Response } from 'express';

/**
 * Once a shutdown begins, each keep-alive connection closes after its current answer
 * (`Connection: close`), so its client reconnects to another process instead of sending its next
 * request to one that is going away. Answers already under way are marked too, as long as their
 * headers have not been sent.
 */
export function connectionDrain(): { middleware: RequestHandler; begin(): void } {
  let draining = false;
  const underWay = new Set<Response>();
  const closeAfter = (res: Response) => {
    if (!res.headersSent) res.shouldKeepAlive = false;
  };
  return {
    middleware: (_req, res, next) => {
      if (draining) closeAfter(res);
      else {
        underWay.add(res);
        res.once('close', () => underWay.delete(res));
      }
      next();
    },
    begin() {
      draining = true;
      for (const res of underWay) closeAfter(res);
      underWay.clear();
    },
  };
}
