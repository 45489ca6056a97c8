import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { StackViewport } from '@cornerstonejs/core';
import { useT } from '../../lib/intl';
import { Button } from '../../components/ui/Button';
import { cx } from '../../components/ui/classes';
import { pagerReleases } from '../../lib/cornerstone-cache-policy';
import type { Cornerstone, Viewer } from './cornerstone-module';
import type { SlotName } from './hanging';
import { keyAction, type ViewAction, type VoiRange } from './view-actions';
import { hangAsRadiologists, applyViewAction, currentWindow } from './viewport-control';
import { classifyLoadError, isBlankDecode, isCutShort, type ViewportStatus } from './load-errors';
import { markFirstView, useFirstView } from './use-first-view';

/**
 * One image of a viewport's stack: its cornerstone id (null: not available offline), its text
 * alternative, and the server's id of an image read online, whose first view (first-views.ts) is
 * drawn before cornerstone's.
 */
export type StackImage = { imageId: string | null; label: string; serverId: string | null };

/** What the toolbar needs of the viewport it acts on. */
export type ViewportHandle = { label: string; apply(action: ViewAction): void };

type ImageViewportProps = {
  /** cornerstone's engine; null while its code loads (the first view is drawn meanwhile). */
  viewer: Viewer | null;
  /** cornerstone's code could not be loaded: nothing but the first view can be shown. */
  viewerFailed: boolean;
  viewportId: string;
  images: StackImage[];
  slot: SlotName | null;
  /** A heading-like line above the image (e.g. "Previous examination"), when there are several sets. */
  caption?: string;
  keysHelpId: string;
  isActive: boolean;
  onActivate: (viewportId: string) => void;
  register: (viewportId: string, handle: ViewportHandle | null) => void;
};

/** A decoded image that is flat, or came from a cut-off codestream: nothing a patient should be shown. */
function notShowable(cornerstone: Cornerstone, viewport: StackViewport): boolean {
  const imageId = viewport.getCurrentImageId();
  const frame = imageId ? cornerstone.compressedFrameTail(imageId) : undefined;
  return isBlankDecode(viewport.getCornerstoneImage()) || isCutShort(frame?.transferSyntaxUid, frame?.tail);
}

/** The Patient Orientation of the image the viewport shows, for hanging it. */
function orientationOf(cornerstone: Cornerstone, viewport: StackViewport): string | undefined {
  const imageId = viewport.getCurrentImageId();
  return imageId ? cornerstone.patientOrientationOf(imageId) : undefined;
}

/**
 * One cornerstone viewport: a labelled, focusable region holding the canvas, the keys of the
 * viewer (view-actions.ts), and a plain message instead of the image when it cannot be shown.
 * Until cornerstone has drawn the image, the first view's picture (use-first-view.ts) stands in.
 */
export function ImageViewport({
  viewer,
  viewerFailed,
  viewportId,
  images,
  slot,
  caption,
  keysHelpId,
  isActive,
  onActivate,
  register,
}: ImageViewportProps) {
  const t = useT();
  const element = useRef<HTMLDivElement>(null);
  const viewportRef = useRef<StackViewport | null>(null);
  const baseWindow = useRef<VoiRange | null>(null);
  const imageIds = images.map((image) => image.imageId);
  const [index, setIndex] = useState(0);
  // Offline with bytes not kept on the device there is nothing to load. The parent gives each
  // stack its own viewport (key), so this state never outlives its stack.
  const [loadStatus, setStatus] = useState<ViewportStatus>(() => (imageIds.every(Boolean) && imageIds.length > 0 ? 'loading' : 'notKept'));
  const status: ViewportStatus = viewerFailed && loadStatus === 'loading' ? 'loadFailed' : loadStatus;
  const stackKey = imageIds.join('|');
  const current = images[Math.min(index, images.length - 1)];
  const label = current?.label ?? '';
  const { preview, canvas: previewCanvas, takeFile, dismiss } = useFirstView(images[0]?.serverId ?? null, images[0]?.imageId ?? null, slot);

  // The viewport lives as long as its stack: a new stack (e.g. the compared set) starts anew.
  useEffect(() => {
    const target = element.current;
    if (!target || !viewer) return;
    const { cornerstone } = viewer;
    const ids = stackKey.split('|');
    const { viewport, disable } = cornerstone.enableStackViewport(viewer, viewportId, target);
    viewportRef.current = viewport;
    let alive = true;
    // The first frame drawn after the image itself arrived (cornerstone also draws the empty
    // viewport as it is enabled): cornerstone's own drawing, which replaces the first view's.
    let loaded = false;
    let drawn = false;
    const stopListening = cornerstone.onImageRendered(target, () => {
      if (!loaded || drawn || !alive) return;
      drawn = true;
      markFirstView();
      dismiss();
    });
    const load = async () => {
      // The file the first view downloaded, handed to cornerstone rather than fetched twice.
      const file = await takeFile();
      if (file && alive) await cornerstone.handOverFile(ids[0]!, file).catch(() => undefined);
      if (alive) await viewport.setStack(ids, 0);
    };
    if (ids.every(Boolean)) {
      load().then(
        () => {
          if (!alive) return;
          if (notShowable(cornerstone, viewport)) {
            dismiss();
            setStatus('undecodable');
            return;
          }
          // The image is drawn whatever happens to the finishing touches.
          loaded = true;
          setStatus('drawn');
          baseWindow.current = currentWindow(viewport);
          hangAsRadiologists(viewport, slot, orientationOf(cornerstone, viewport));
          viewport.render();
        },
        (error: unknown) => {
          if (!alive) return;
          dismiss();
          setStatus(classifyLoadError(error));
        },
      );
    }
    return () => {
      alive = false;
      stopListening();
      viewportRef.current = null;
      disable();
    };
  }, [viewer, viewportId, stackKey, slot, takeFile, dismiss]);

  // Keeps the canvas the size of its box (font scale, rotation, the phone's view switcher).
  useEffect(() => {
    const target = element.current;
    if (!target || !viewer) return;
    const observer = new ResizeObserver(() => viewer.engine.resize(true, true));
    observer.observe(target);
    return () => observer.disconnect();
  }, [viewer]);

  const turnPage = (step: number) => {
    const viewport = viewportRef.current;
    const next = index + step;
    if (!viewport || !viewer || next < 0 || next >= images.length || status === 'notKept') return;
    const { cornerstone } = viewer;
    setIndex(next);
    setStatus('loading');
    viewport.setImageIdIndex(next).then(
      () => {
        baseWindow.current = currentWindow(viewport);
        setStatus(notShowable(cornerstone, viewport) ? 'undecodable' : 'drawn');
        // Paging through a long stack keeps only the neighbours decoded (cache-policy.ts).
        for (const released of pagerReleases(imageIds as string[], next, cornerstone.isImageCached)) cornerstone.releaseImage(released);
      },
      (error: unknown) => setStatus(classifyLoadError(error)),
    );
  };

  const apply = (action: ViewAction) => {
    const viewport = viewportRef.current;
    if (action.kind === 'page') turnPage(action.step);
    else if (viewport && viewer && status === 'drawn')
      applyViewAction(viewport, action, baseWindow.current, slot, orientationOf(viewer.cornerstone, viewport));
  };
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  });

  useEffect(() => {
    register(viewportId, { label, apply: (action) => applyRef.current(action) });
    return () => register(viewportId, null);
  }, [register, viewportId, label]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = keyAction(event.key);
    if (!action || (action.kind === 'page' && images.length < 2)) return;
    event.preventDefault();
    apply(action);
  };

  const message =
    status === 'undecodable'
      ? t('images.viewport.undecodable')
      : status === 'loadFailed'
        ? t('images.viewport.loadFailed')
        : status === 'notKept'
          ? t('images.viewport.notKept')
          : null;

  return (
    <figure className={cx('image-view', isActive && 'image-view--active')}>
      {caption && <figcaption className="image-view__caption">{caption}</figcaption>}
      {/* A labelled region that takes focus, so the viewer's keys reach it (WCAG 2.1.1), as a
          scrollable region does; its canvas is not interactive by itself. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        role="region"
        aria-label={label}
        aria-describedby={keysHelpId}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        className="image-view__viewport"
        data-status={status}
        onKeyDown={onKeyDown}
        onFocus={() => onActivate(viewportId)}
        onPointerDown={() => onActivate(viewportId)}
      >
        <div ref={element} className="image-view__canvas" aria-hidden="true" onContextMenu={(event) => event.preventDefault()} />
        {preview && <canvas ref={previewCanvas} className="image-view__canvas" aria-hidden="true" />}
        {status === 'loading' && (
          // Over the first view's picture the words would only hide the image; they stay for screen readers.
          <p className={preview ? 'visually-hidden' : 'image-view__status'} role="status">
            {t('images.viewport.loading')}
          </p>
        )}
        {message && (
          <p className="image-view__message" role="alert">
            {message}
          </p>
        )}
      </div>
      <p className="image-view__label">{label}</p>
      {images.length > 1 && (
        <div className="image-view__pager" role="group" aria-label={t('images.pager.label')}>
          <Button variant="secondary" isDisabled={index === 0} onPress={() => turnPage(-1)}>
            {t('images.pager.previous')}
          </Button>
          <span className="image-view__position" aria-live="polite">
            {t('images.pager.position', { index: index + 1, total: images.length })}
          </span>
          <Button variant="secondary" isDisabled={index === images.length - 1} onPress={() => turnPage(1)}>
            {t('images.pager.next')}
          </Button>
        </div>
      )}
    </figure>
  );
}
