/**
 * Stands in for xmlbuilder2 in the browser build (vite.config.ts alias). cornerstone3D reaches it
 * only through vtk.js's XML mesh readers, which the viewer never uses (it shows images, not
 * meshes); the real package needs Node's `events` and breaks the viewer's chunk as it loads.
 */
export function create(): never {
  throw new Error('XML documents are not supported in the portal');
}
