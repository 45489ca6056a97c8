import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useT } from '../../lib/intl';
import { prefs } from '../../stores/prefs-store';
import type { Banner, BannerPosition } from '@common/types/content';
import { arrivedBanners, fetchBanners } from '../../early-start/result-requests';

/**
 * The sponsor banner format (public/banners, 320x100): the place is kept while the logo loads,
 * so nothing below it jumps when it arrives.
 */
const BANNER_SIZE = { width: 320, height: 100 };

/** Sponsor logos above or below the result; a failure leaves the place empty (spec section 8). */
export function SponsorBanners({ placement }: { placement: BannerPosition }) {
  const t = useT();
  const { lang } = useSnapshot(prefs);
  // Logos already here (the guard asked for them beside the session check) show in the first
  // render: on a phone they are the page's largest paint (issue 4).
  const [banners, setBanners] = useState<Banner[]>(() => arrivedBanners(placement) ?? []);

  // Takes the started request (its answer may be the one already shown) or asks anew.
  useEffect(() => {
    let current = true;
    fetchBanners(placement)
      .then((answer) => current && setBanners(answer))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [placement]);

  if (banners.length === 0) return null;
  return (
    // Two such asides may share the page (above and below the result): each has its own name.
    <aside className="sponsor-banners" aria-label={t(placement === 'top-placement' ? 'result.sponsors.top' : 'result.sponsors.bottom')}>
      {banners.map((banner) => {
        const image = (
          <img
            src={banner.imageUrl}
            alt={banner.alt[lang]}
            {...BANNER_SIZE}
            // Above the result, the first thing on screen; below it, fetched only when scrolled near.
            {...(placement === 'top-placement' ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
            className="sponsor-banners__image"
          />
        );
        return (
          <div key={banner.id} className="sponsor-banners__item">
            {banner.linkUrl ? (
              <a href={banner.linkUrl} target="_blank" rel="noopener noreferrer" className="sponsor-banners__link">
                {image}
              </a>
            ) : (
              image
            )}
          </div>
        );
      })}
    </aside>
  );
}
