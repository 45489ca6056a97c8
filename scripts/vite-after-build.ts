import type { Plugin, ResolvedConfig } from 'vite';

/**
 * A build step that runs once Vite has written the client (`closeBundle`), one step at a time:
 * `pre` before the plugins that finish the output (the service worker's precache list), `post`
 * after them.
 */
export function afterBuild(name: string, order: 'pre' | 'post', step: (config: ResolvedConfig) => Promise<void>): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name,
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      sequential: true,
      order,
      handler: () => step(config!),
    },
  };
}
