import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { StackViewport } from '@cornerstonejs/core';
import { useT } from '../../lib/intl';
import { Button } from '../../components/ui/Button';
import { cx } from '../../components/ui/classes';
import {
  compressedFrameTail,
  enableStackViewport,
  isImageCached,
  onImageRendered,
  releaseImage,
  type ViewerEngine,
} from '../../lib/cornerstone';
import { pagerReleases } from '../../lib/cornerstone-cache-policy';
import type { SlotName } from './hanging';
import { keyAction, type ViewAction, type VoiRange } from './view-actions';
import { hangAsRadiologists, applyViewAction, currentWindow } from './viewport-control';
import { classifyLoadError, isBlankDecode, isCutShort, type ViewportStatus } from './load-errors';

/** One image of a viewport's stack: its cornerstone id (null: not available offline) and its text alternative. */
export type StackImage = { imageId: string | null; label: string };

/** What the toolbar needs of the viewport it acts on. */
export type ViewportHandle = { label: string; apply(action: ViewAction): void };

type ImageViewportProps = {
  viewer: ViewerEngine;
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
function notShowable(viewport: StackViewport): boolean {
  const imageId = viewport.getCurrentImageId();
  const frame = imageId ? compressedFrameTail(imageId) : undefined;
  return isBlankDecode(viewport.getCornerstoneImage()) || isCutShort(frame?.transferSyntaxUid, frame?.tail);
}

// The bench (bench/viewer.ts) reads this mark: the time from navigation to the first drawn view.
let firstViewMarked = false;

/**
 * One cornerstone viewport: a labelled, focusable region holding the canvas, the keys of the
 * viewer (view-actions.ts), and a plain message instead of the image when it cannot be shown.
 */
export function ImageViewport({
  viewer,
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
  const [status, setStatus] = useState<ViewportStatus>(() => (imageIds.every(Boolean) && imageIds.length > 0 ? 'loading' : 'notKept'));
  const stackKey = imageIds.join('|');
  const current = images[Math.min(index, images.length - 1)];
  const label = current?.label ?? '';

  // The viewport lives as long as its stack: a new stack (e.g. the compared set) starts anew.
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const ids = stackKey.split('|');
    const { viewport, disable } = enableStackViewport(viewer, viewportId, target);
    viewportRef.current = viewport;
    let alive = true;
    // The first frame drawn after the image itself arrived (cornerstone also draws the empty
    // viewport as it is enabled): that is the "first drawn view" the bench times.
    let loaded = false;
    let marked = false;
    const stopListening = onImageRendered(target, () => {
      if (!loaded || marked || !alive) return;
      marked = true;
      if (!firstViewMarked) {
        firstViewMarked = true;
        performance.mark('images:first-view');
      }
    });
    if (ids.every(Boolean)) {
      viewport.setStack(ids, 0).then(
        () => {
          if (!alive) return;
          if (notShowable(viewport)) {
            setStatus('undecodable');
            return;
          }
          // The image is drawn whatever happens to the finishing touches.
          loaded = true;
          setStatus('drawn');
          baseWindow.current = currentWindow(viewport);
          hangAsRadiologists(viewport, slot);
          viewport.render();
        },
        (error: unknown) => {
          if (alive) setStatus(classifyLoadError(error));
        },
      );
    }
    return () => {
      alive = false;
      stopListening();
      viewportRef.current = null;
      disable();
    };
  }, [viewer, viewportId, stackKey, slot]);

  // Keeps the canvas the size of its box (font scale, rotation, the phone's view switcher).
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new ResizeObserver(() => viewer.engine.resize(true, true));
    observer.observe(target);
    return () => observer.disconnect();
  }, [viewer]);

  const turnPage = (step: number) => {
    const viewport = viewportRef.current;
    const next = index + step;
    if (!viewport || next < 0 || next >= images.length || status === 'notKept') return;
    setIndex(next);
    setStatus('loading');
    viewport.setImageIdIndex(next).then(
      () => {
        baseWindow.current = currentWindow(viewport);
        setStatus(notShowable(viewport) ? 'undecodable' : 'drawn');
        // Paging through a long stack keeps only the neighbours decoded (cache-policy.ts).
        for (const released of pagerReleases(imageIds as string[], next, isImageCached)) releaseImage(released);
      },
      (error: unknown) => setStatus(classifyLoadError(error)),
    );
  };

  const apply = (action: ViewAction) => {
    const viewport = viewportRef.current;
    if (action.kind === 'page') turnPage(action.step);
    else if (viewport && status === 'drawn') applyViewAction(viewport, action, baseWindow.current, slot);
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
        {status === 'loading' && (
          <p className="image-view__status" role="status">
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
