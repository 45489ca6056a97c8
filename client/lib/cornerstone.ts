import { cache, Enums, init as initCore, metaData, RenderingEngine, type StackViewport, type Types } from '@cornerstonejs/core';
import { init as initLoader, wadouri } from '@cornerstonejs/dicom-image-loader';
import {
  addTool,
  Enums as ToolEnums,
  init as initTools,
  PanTool,
  ToolGroupManager,
  WindowLevelTool,
  ZoomTool,
  type Types as ToolTypes,
} from '@cornerstonejs/tools';
import { cacheLimitBytes } from './cornerstone-cache-policy';

/**
 * The one module that speaks to cornerstone3D, loaded only by the viewer's lazy chunk and the
 * upload page's thumbnails. Decoding runs in
 * the DICOM loader's own web workers, each codec's wasm fetched the first time an image needs it.
 */
let started = false;

export function startCornerstone(largestImageBytes: number): void {
  if (!started) {
    initCore();
    // Half the cores decode: the other half keep the page and the browser responsive.
    initLoader({ maxWebWorkers: Math.max(1, Math.floor((navigator.hardwareConcurrency || 2) / 2)) });
    initTools();
    addTool(PanTool);
    addTool(ZoomTool);
    addTool(WindowLevelTool);
    started = true;
  }
  const deviceMemory = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  cache.setMaxCacheSize(cacheLimitBytes(deviceMemory, largestImageBytes));
}

export type DragMode = 'pan' | 'windowLevel';

/** One viewer page: a rendering engine for all its viewports and the tools they share. */
export type ViewerEngine = {
  engine: RenderingEngine;
  tools: ToolTypes.IToolGroup;
  setDragMode(mode: DragMode): void;
  destroy(): void;
};

let engines = 0;

export function createViewerEngine(dragMode: DragMode): ViewerEngine {
  const id = `images-${++engines}`;
  const engine = new RenderingEngine(id);
  const tools = ToolGroupManager.createToolGroup(id);
  if (!tools) throw new Error('cornerstone tool group not created');
  tools.addTool(PanTool.toolName);
  tools.addTool(ZoomTool.toolName, { pinchToZoom: true });
  tools.addTool(WindowLevelTool.toolName);
  const { MouseBindings } = ToolEnums;
  // Mouse: the middle button pans, the right one and the wheel zoom; two fingers pinch to zoom.
  tools.setToolActive(ZoomTool.toolName, {
    bindings: [{ mouseButton: MouseBindings.Secondary }, { mouseButton: MouseBindings.Wheel }, { numTouchPoints: 2 }],
  });
  const setDragMode = (mode: DragMode) => {
    // The left button and one finger do what the drag-mode switch says; the other tool keeps its extra binding.
    const [primary, other] = mode === 'pan' ? [PanTool.toolName, WindowLevelTool.toolName] : [WindowLevelTool.toolName, PanTool.toolName];
    tools.setToolPassive(other, { removeAllBindings: true });
    tools.setToolActive(primary, { bindings: [{ mouseButton: MouseBindings.Primary }] });
    if (other === PanTool.toolName) tools.setToolActive(PanTool.toolName, { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
  };
  setDragMode(dragMode);
  return {
    engine,
    tools,
    setDragMode,
    destroy() {
      ToolGroupManager.destroyToolGroup(id);
      engine.destroy();
    },
  };
}

/** Enables `element` as a stack viewport of the engine; answers the viewport and how to let it go. */
export function enableStackViewport(
  viewer: ViewerEngine,
  viewportId: string,
  element: HTMLDivElement,
): { viewport: StackViewport; disable(): void } {
  viewer.engine.enableElement({
    viewportId,
    element,
    type: Enums.ViewportType.STACK,
    defaultOptions: { background: [0, 0, 0] as Types.Point3 },
  });
  viewer.tools.addViewport(viewportId, viewer.engine.id);
  return {
    viewport: viewer.engine.getViewport(viewportId) as StackViewport,
    disable() {
      // The page may have destroyed the engine (and its viewports) first, as it unmounts.
      if (viewer.engine.hasBeenDestroyed) return;
      viewer.tools.removeViewports(viewer.engine.id, viewportId);
      viewer.engine.disableElement(viewportId);
    },
  };
}

export function isImageCached(imageId: string): boolean {
  return cache.getImageLoadObject(imageId) !== undefined;
}

export function releaseImage(imageId: string): void {
  cache.removeImageLoadObject(imageId, { force: true });
}

/** Calls `onRendered` each time viewport `viewportId`'s element draws an image. */
export function onImageRendered(element: HTMLElement, onRendered: () => void): () => void {
  element.addEventListener(Enums.Events.IMAGE_RENDERED, onRendered);
  return () => element.removeEventListener(Enums.Events.IMAGE_RENDERED, onRendered);
}

/** The image id of a DICOM file on the device itself (an image kept for offline viewing). */
export function imageIdOfFile(bytes: Blob): string {
  return wadouri.fileManager.add(bytes);
}

export { imageIdOfServerImage } from './cornerstone-ids';

/**
 * Patient Orientation (0020,0020) of a loaded image as "A\\R", undefined when absent. The loader
 * keeps the file's tags either naturalized (its default path: `PatientOrientation: ['A', 'R']`)
 * or as the parsed file (dicom-parser, while the image is cached); both are asked.
 */
export function patientOrientationOf(imageId: string): string | undefined {
  const natural = metaData.get('naturalized', imageId) as { PatientOrientation?: unknown } | undefined;
  const value = natural?.PatientOrientation;
  if (Array.isArray(value)) return value.join('\\');
  if (typeof value === 'string') return value;
  const { url } = wadouri.parseImageId(imageId);
  const dataSet: unknown = wadouri.dataSetCacheManager.isLoaded(url) ? wadouri.dataSetCacheManager.get(url) : undefined;
  const read = (dataSet as { string?: unknown } | undefined)?.string;
  return typeof read === 'function' ? (read.call(dataSet, 'x00200020') as string | undefined) : undefined;
}

/**
 * The transfer syntax and the last bytes of a loaded image's first compressed frame, from the
 * tags the loader keeps; undefined for uncompressed data or when the loader kept none.
 */
export function compressedFrameTail(imageId: string): { transferSyntaxUid: string; tail: Uint8Array } | undefined {
  const frame = metaData.getTyped('compressedFrameData', imageId, { frameIndex: 0 }) as
    { pixelData?: unknown; transferSyntaxUid?: string } | undefined;
  if (!frame?.transferSyntaxUid) return undefined;
  const fragments = Array.isArray(frame.pixelData) ? frame.pixelData : [frame.pixelData];
  const last: unknown = fragments[fragments.length - 1];
  const bytes =
    last instanceof ArrayBuffer
      ? new Uint8Array(last)
      : ArrayBuffer.isView(last)
        ? new Uint8Array(last.buffer, last.byteOffset, last.byteLength)
        : null;
  return bytes ? { transferSyntaxUid: frame.transferSyntaxUid, tail: bytes.subarray(Math.max(0, bytes.length - 4)) } : undefined;
}
