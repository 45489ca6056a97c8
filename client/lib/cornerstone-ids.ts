/**
 * The cornerstone image id of a file the server serves (GET /api/images/:id). Apart from
 * cornerstone.ts, so the viewer can name its images (and draw their first views) before
 * cornerstone3D's 4 MB have loaded.
 */
export function imageIdOfServerImage(id: string): string {
  return `wadouri:/api/images/${encodeURIComponent(id)}`;
}
