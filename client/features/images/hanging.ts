import type { ImageRef } from '@common/types/images';

/** The four standard screening views, in the order they hang: top row CC, bottom row MLO. */
export type SlotName = 'RCC' | 'LCC' | 'RMLO' | 'LMLO';
export const SLOT_NAMES: readonly SlotName[] = ['RCC', 'LCC', 'RMLO', 'LMLO'];

type ViewTags = Pick<ImageRef, 'laterality' | 'viewPosition'>;

export type Hanging<T> = {
  /** One image per standard view, or null when the set has none for it. */
  slots: Record<SlotName, T | null>;
  /** Images that fit no slot (other views, unknown side, or a second image of a filled view), in the order given. */
  others: T[];
};

/**
 * The slot an image belongs in, from its laterality and view position. Only plain CC and MLO
 * fill the standard slots: an exaggerated CC (XCCL) or a lateral (ML, LM) is another picture a
 * radiologist hangs apart, so it is listed after the four.
 */
export function slotOf(image: ViewTags): SlotName | null {
  const view = image.viewPosition?.trim().toUpperCase();
  if (!image.laterality || (view !== 'CC' && view !== 'MLO')) return null;
  return `${image.laterality}${view}`;
}

/**
 * The mammography hanging: R on the viewer's left and L on the right, so the chest walls face
 * each other (RCC|LCC above RMLO|LMLO). The first image of a view takes its slot; the rest follow.
 */
export function hangImages<T extends ViewTags>(images: readonly T[]): Hanging<T> {
  const slots: Record<SlotName, T | null> = { RCC: null, LCC: null, RMLO: null, LMLO: null };
  const others: T[] = [];
  for (const image of images) {
    const slot = slotOf(image);
    if (slot && !slots[slot]) slots[slot] = image;
    else others.push(image);
  }
  return { slots, others };
}
