import type { Express } from 'express';

/** A route as Express holds it: its method (lower case) and path with `:name` parameters, below the mount. */
export type ServedRoute = { method: string; path: string };

type RouterLayer = { rawPath?: unknown; route?: { path: string; methods: Record<string, boolean> }; handle: { stack?: RouterLayer[] } };

function walk(stack: RouterLayer[], prefix: string): ServedRoute[] {
  return stack.flatMap((layer) => {
    if (layer.route) return Object.keys(layer.route.methods).map((method) => ({ method, path: prefix + layer.route!.path }));
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return layer.handle.stack ? walk(layer.handle.stack, prefix + mount) : [];
  });
}

/** Every route an Express 5 app serves below the router mounted at `mount`, walked from its router stack (router 2 keeps each layer's `rawPath`). */
export function servedRoutes(express: Express, mount: string): ServedRoute[] {
  const stack = (express as unknown as { router: { stack: RouterLayer[] } }).router.stack;
  const mounted = stack.find((layer) => layer.rawPath === mount);
  if (!mounted?.handle.stack) throw new Error(`no router mounted at ${mount}`);
  return walk(mounted.handle.stack, '');
}
