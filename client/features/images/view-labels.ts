import type { ImageRef } from '@common/types/images';
import type { Translate } from '../../lib/intl';
import type { SlotName } from './hanging';

type Labelled = Pick<ImageRef, 'laterality' | 'viewPosition' | 'studyDate'>;
type FormatDate = (value: string, options: Intl.DateTimeFormatOptions) => string;

// A calendar day from the image header or the screening: no time zone may shift it.
const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' };

function sideName(t: Translate, laterality: Labelled['laterality']): string {
  if (laterality === 'R') return t('images.side.right');
  if (laterality === 'L') return t('images.side.left');
  return t('images.side.unknown');
}

function viewName(t: Translate, viewPosition: string | null): string {
  const view = viewPosition?.trim().toUpperCase();
  if (!view) return t('images.view.unknown');
  return t('images.view.named', { view });
}

/** "Prawa pierś, projekcja CC": the side and view, as the view switcher and empty slots name them. */
export function shortViewName(t: Translate, image: Pick<Labelled, 'laterality' | 'viewPosition'>): string {
  return t('images.viewName', { side: sideName(t, image.laterality), view: viewName(t, image.viewPosition) });
}

/** The name of a standard slot with no image in it. */
export function slotName(t: Translate, slot: SlotName): string {
  return shortViewName(t, { laterality: slot.startsWith('R') ? 'R' : 'L', viewPosition: slot.slice(1) });
}

/**
 * The text alternative of one drawn image: side, view and date, e.g. "Prawa pierś, projekcja CC,
 * 14 marca 2025". `fallbackDate` (the screening's day) serves an image whose header has none.
 */
export function imageAltText(t: Translate, formatDate: FormatDate, image: Labelled, fallbackDate: string | null): string {
  const day = image.studyDate ?? fallbackDate?.slice(0, 10) ?? null;
  const short = shortViewName(t, image);
  if (!day) return t('images.viewNameUndated', { name: short });
  return t('images.viewNameDated', { name: short, date: formatDate(`${day}T00:00:00Z`, DAY) });
}
