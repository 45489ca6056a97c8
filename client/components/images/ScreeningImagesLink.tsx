import { useEffect, useState } from 'react';
import { Link } from '../ui/Link';
import { LinkButton } from '../ui/LinkButton';
import { isApiError } from '../../lib/api';
import { useT } from '../../lib/intl';
import { fetchImageSets, screeningSetOf } from '../../lib/image-sets';
import { pathFor } from '../../routes/paths';
import { useSession } from '../../stores/session-store';
import { currentOwnerKey } from '../../documents/device-owner';

/**
 * Whether screening `screeningId` has images to view (GET /api/images), or offline whether its
 * images are kept on this device; false until known or on failure.
 */
function useHasImages(screeningId: number): boolean {
  const { user } = useSession();
  const ownerKey = currentOwnerKey(user);
  const [known, setKnown] = useState<{ screeningId: number; has: boolean } | null>(null);
  useEffect(() => {
    let current = true;
    const answer = (has: boolean) => current && setKnown({ screeningId, has });
    fetchImageSets().then(
      (sets) => answer(screeningSetOf(sets, screeningId) !== undefined),
      async (error: unknown) => {
        // Offline: kept images open from the device. The device database's code loads only
        // then, so it never weighs on the result page.
        if (!isApiError(error, 'NETWORK') || !ownerKey) return;
        const { getImageSetCopy } = await import('../../lib/device-db');
        answer((await getImageSetCopy(ownerKey, screeningId).catch(() => undefined)) !== undefined);
      },
    );
    return () => {
      current = false;
    };
  }, [screeningId, ownerKey]);
  return known?.screeningId === screeningId && known.has;
}

/**
 * "Images": the way from a screening's result page (a button) or its entry in the list (a link
 * among the others) to its images, shown only for a screening that has some. Light on purpose:
 * the viewer's code loads with its own page.
 */
export function ScreeningImagesLink({ screeningId, variant }: { screeningId: number; variant: 'button' | 'listItem' }) {
  const t = useT();
  const has = useHasImages(screeningId);
  if (!has) return null;
  const href = pathFor('images_of_screening', { id: screeningId });
  return variant === 'button' ? (
    <LinkButton variant="secondary" href={href}>
      {t('images.link')}
    </LinkButton>
  ) : (
    <li>
      <Link href={href}>{t('images.link')}</Link>
    </li>
  );
}
