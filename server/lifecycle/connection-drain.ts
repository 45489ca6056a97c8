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
  // One listener for every response (`this` is the response), not a closure per request; `on`,
  // not `once`: a response closes once, and `once` would wrap the listener for every request.
  function forget(this: Response) {
    underWay.delete(this);
  }
  return {
    middleware: (_req, res, next) => {
      if (draining) closeAfter(res);
      else {
        underWay.add(res);
        res.on('close', forget);
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
