import { cache, metaData } from '@cornerstonejs/core';
import { prefetchPart10Instance } from '@cornerstonejs/dicom-image-loader';
import {
  compressedFrameTail,
  createViewerEngine,
  enableStackViewport,
  imageIdOfFile,
  isImageCached,
  onImageRendered,
  patientOrientationOf,
  releaseImage,
  startCornerstone,
} from '../../lib/cornerstone';

/**
 * Gives cornerstone's DICOM loader a file the first view (first-views.ts) already downloaded: the
 * loader reads the file's tags from it and decodes its pixels without a request of its own. Must
 * be awaited before the image is loaded, or the loader would not find it and download it again.
 */
async function handOverFile(imageId: string, file: ArrayBuffer): Promise<void> {
  await prefetchPart10Instance(imageId, file);
}

/** Whether cornerstone has the image already (decoded, or its file): nothing to download then. */
function cornerstoneHasImage(imageId: string): boolean {
  return cache.getImageLoadObject(imageId) !== undefined || metaData.get('naturalized', imageId) !== undefined;
}

/**
 * Everything of cornerstone3D the viewer's components use, loaded as one lazy module
 * (cornerstone-module.ts) so the viewer's page, its layout and its first views are drawn without
 * waiting for cornerstone's 4 MB of script.
 */
export const cornerstone = {
  startCornerstone,
  createViewerEngine,
  enableStackViewport,
  onImageRendered,
  isImageCached,
  releaseImage,
  imageIdOfFile,
  patientOrientationOf,
  compressedFrameTail,
  handOverFile,
  cornerstoneHasImage,
};
