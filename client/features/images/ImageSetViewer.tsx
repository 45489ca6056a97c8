import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ToggleButton } from 'react-aria-components';
import type { ImageRef, ImageSet } from '@common/types/images';
import { useIntl, useT } from '../../lib/intl';
import type { OwnerKey } from '../../lib/device-db';
import type { DragMode } from '../../lib/cornerstone';
import { imageIdOfServerImage } from '../../lib/cornerstone-ids';
import { loadCornerstone, type Cornerstone, type Viewer } from './cornerstone-module';
import { firstPicturesSettled } from './first-views';
import { hangImages, SLOT_NAMES, type SlotName } from './hanging';
import { ImageViewport, type StackImage, type ViewportHandle } from './ImageViewport';
import { keptImageBytes } from './kept-images';
import { useWideLayout } from './use-wide-layout';
import type { ViewAction } from './view-actions';
import { imageAltText, slotName } from './view-labels';
import { ViewerToolbar } from './ViewerToolbar';
import { ViewSwitcher } from './ViewSwitcher';

type ImageSetViewerProps = {
  set: ImageSet;
  /** The previous screening's set, for "compare with previous screening". */
  prior: ImageSet | null;
  /** Offline: images are read from the device (kept-images.ts). */
  offline: boolean;
  ownerKey: OwnerKey | null;
};

/** The day an image without a StudyDate of its own is labelled with. */
const setDate = (set: ImageSet) => (set.kind === 'screening' ? set.examinedAt : set.studyDate);

/**
 * cornerstone image ids of the set's images; null for an image that is not on the device offline.
 * Online they are known at once; offline only once cornerstone (which names a kept file) has loaded.
 */
function useImageIds(
  sets: ImageSet[],
  offline: boolean,
  ownerKey: OwnerKey | null,
  cornerstone: Cornerstone | null,
): Map<string, string | null> | null {
  const images = useMemo(() => sets.flatMap((set) => set.images), [sets]);
  const online = useMemo(() => new Map(images.map((image) => [image.id, imageIdOfServerImage(image.id)])), [images]);
  const [kept, setKept] = useState<{ images: ImageRef[]; ids: Map<string, string | null> } | null>(null);
  useEffect(() => {
    if (!offline || !cornerstone) return;
    let current = true;
    void Promise.all(
      images.map(async (image) => {
        const bytes = ownerKey ? await keptImageBytes(ownerKey, image.id).catch(() => null) : null;
        return [image.id, bytes ? cornerstone.imageIdOfFile(bytes) : null] as const;
      }),
    ).then((entries) => current && setKept({ images, ids: new Map(entries) }));
    return () => {
      current = false;
    };
  }, [images, offline, ownerKey, cornerstone]);
  if (!offline) return online;
  return kept?.images === images ? kept.ids : null;
}

/**
 * One engine per viewer; its viewports are the ImageViewports below. cornerstone's code loads
 * once the images' first views have their pictures (first-views.ts), which the viewports show meanwhile.
 */
function useViewerEngine(largestImageBytes: number, dragMode: DragMode): { viewer: Viewer | null; failed: boolean } {
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [failed, setFailed] = useState(false);
  const initialDragMode = useRef(dragMode);
  useEffect(() => {
    let current = true;
    let created: Viewer | null = null;
    firstPicturesSettled()
      .then(loadCornerstone)
      .then(
        (cornerstone) => {
          if (!current) return;
          cornerstone.startCornerstone(largestImageBytes);
          created = { ...cornerstone.createViewerEngine(initialDragMode.current), cornerstone };
          setViewer(created);
        },
        () => current && setFailed(true),
      );
    return () => {
      current = false;
      setViewer(null);
      created?.destroy();
    };
  }, [largestImageBytes]);
  useEffect(() => viewer?.setDragMode(dragMode), [viewer, dragMode]);
  return { viewer, failed };
}

/** Touch screens drag to pan, as every photo viewer does; a mouse drags the window, as radiologists do. */
const defaultDragMode = (): DragMode => (window.matchMedia('(pointer: coarse)').matches ? 'pan' : 'windowLevel');

/**
 * The mammography viewer of one image set: the four standard views hung as radiologists hang them
 * (tablet and desktop), or one at a time with a switcher (phone, and while comparing with the
 * previous screening), then every other image in a pager.
 */
export function ImageSetViewer({ set, prior, offline, ownerKey }: ImageSetViewerProps) {
  const t = useT();
  const intl = useIntl();
  const wide = useWideLayout();
  const keysHelpId = useId();
  const [dragMode, setDragMode] = useState<DragMode>(defaultDragMode);
  const [compare, setCompare] = useState(false);
  const sets = useMemo(() => (prior ? [set, prior] : [set]), [set, prior]);
  const largest = Math.max(0, ...sets.flatMap((each) => each.images.map((image) => image.sizeBytes)));
  const { viewer, failed: viewerFailed } = useViewerEngine(largest, dragMode);
  const imageIds = useImageIds(sets, offline, ownerKey, viewer?.cornerstone ?? null);

  const hanging = useMemo(() => hangImages(set.images), [set]);
  const priorHanging = useMemo(() => (prior ? hangImages(prior.images) : null), [prior]);
  const filledSlots = SLOT_NAMES.filter((slot) => hanging.slots[slot]);
  const [selectedSlot, setSelectedSlot] = useState<SlotName>(filledSlots[0] ?? 'RCC');

  const [handles, setHandles] = useState<ReadonlyMap<string, ViewportHandle>>(new Map());
  const [activeId, setActiveId] = useState<string | null>(null);
  const register = useCallback((viewportId: string, handle: ViewportHandle | null) => {
    setHandles((previous) => {
      const next = new Map(previous);
      if (handle) next.set(viewportId, handle);
      else next.delete(viewportId);
      return next;
    });
  }, []);
  // The toolbar acts on the viewport last touched or focused, else on the first one shown.
  const targetId = activeId && handles.has(activeId) ? activeId : (handles.keys().next().value ?? null);
  const target = targetId ? (handles.get(targetId) ?? null) : null;
  const onAction = useCallback((action: ViewAction) => target?.apply(action), [target]);

  if (!imageIds) return <p role="status">{t('images.viewport.loading')}</p>;

  const stackOf = (image: ImageRef, of: ImageSet): StackImage => ({
    imageId: imageIds.get(image.id) ?? null,
    serverId: offline ? null : image.id,
    label: imageAltText(t, (value, options) => intl.formatDate(value, options), image, setDate(of)),
  });
  const viewportProps = { viewer, viewerFailed, keysHelpId, onActivate: setActiveId, register };
  const slotView = (slot: SlotName, of: ImageSet, image: ImageRef | null, prefix: string, caption?: string) =>
    image ? (
      <ImageViewport
        key={`${prefix}-${slot}`}
        viewportId={`${prefix}-${slot}`}
        images={[stackOf(image, of)]}
        slot={slot}
        caption={caption}
        isActive={targetId === `${prefix}-${slot}`}
        {...viewportProps}
      />
    ) : (
      <figure key={`${prefix}-${slot}`} className="image-view image-view--empty">
        {caption && <figcaption className="image-view__caption">{caption}</figcaption>}
        <p className="image-view__message">
          {prefix === 'prior'
            ? t('images.compare.priorMissing', { name: slotName(t, slot) })
            : t('images.slot.empty', { name: slotName(t, slot) })}
        </p>
      </figure>
    );

  const comparing = compare && prior !== null && priorHanging !== null;
  const oneAtATime = !wide || comparing;

  return (
    <div className="image-viewer">
      <ViewerToolbar targetLabel={target?.label ?? null} onAction={onAction} dragMode={dragMode} onDragMode={setDragMode} />
      <p id={keysHelpId} className="image-viewer__help">
        {t('images.tools.help')} {t('images.viewport.keys')} {hanging.others.length > 1 && t('images.viewport.keysPager')}
      </p>
      {set.kind === 'screening' && (
        <div className="image-viewer__compare">
          <ToggleButton
            className="btn btn--secondary viewer-tools__toggle"
            isSelected={comparing}
            isDisabled={!prior}
            onChange={setCompare}
          >
            {t('images.compare')}
          </ToggleButton>
          {!prior && <p className="image-viewer__note">{t('images.compare.none')}</p>}
        </div>
      )}
      {filledSlots.length > 0 &&
        (oneAtATime ? (
          <>
            <ViewSwitcher selected={selectedSlot} onSelect={setSelectedSlot} />
            <div className={comparing ? 'image-viewer__pair' : 'image-viewer__single'}>
              {slotView(selectedSlot, set, hanging.slots[selectedSlot], 'current', comparing ? t('images.viewport.current') : undefined)}
              {comparing && prior && slotView(selectedSlot, prior, priorHanging.slots[selectedSlot], 'prior', t('images.viewport.prior'))}
            </div>
          </>
        ) : (
          <div role="group" aria-label={t('images.hanging.label')} className="image-viewer__hanging">
            {SLOT_NAMES.map((slot) => slotView(slot, set, hanging.slots[slot], 'current'))}
          </div>
        ))}
      {hanging.others.length > 0 && (
        <section className="image-viewer__others" aria-labelledby={`${keysHelpId}-others`}>
          <h2 id={`${keysHelpId}-others`} className="image-viewer__subtitle">
            {t('images.others.title')}
          </h2>
          <ImageViewport
            viewportId="others"
            images={hanging.others.map((image) => stackOf(image, set))}
            slot={null}
            isActive={targetId === 'others'}
            {...viewportProps}
          />
        </section>
      )}
    </div>
  );
}
