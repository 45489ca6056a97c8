import type { ViewerEngine } from '../../lib/cornerstone';

/** cornerstone3D as the viewer uses it (viewer-cornerstone.ts), once loaded. */
export type Cornerstone = (typeof import('./viewer-cornerstone'))['cornerstone'];

/** A viewer page's rendering engine and tools, with the cornerstone module they came from. */
export type Viewer = ViewerEngine & { cornerstone: Cornerstone };

let loading: Promise<Cornerstone> | null = null;
let loaded: Cornerstone | null = null;

/** Loads cornerstone3D's chunk once; a failed load (offline, a new version deployed) is tried again next time. */
export function loadCornerstone(): Promise<Cornerstone> {
  loading ??= import('./viewer-cornerstone').then(
    (module) => (loaded = module.cornerstone),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The module if it has loaded already, else null. */
export function loadedCornerstone(): Cornerstone | null {
  return loaded;
}
