import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api } from '../../lib/api';
import { useT } from '../../lib/intl';
import { prefs } from '../accessibility/prefs-store';

type Banner = { id: number | string; position: string; imageUrl: string; linkUrl: string | null; alt: { pl: string; en: string } };
export type BannerPlacement = 'top-placement' | 'bottom-placement';

/** Sponsor logos above or below the result; a failure leaves the place empty (spec section 8). */
export function SponsorBanners({ placement }: { placement: BannerPlacement }) {
  const t = useT();
  const { lang } = useSnapshot(prefs);
  const [banners, setBanners] = useState<Banner[]>([]);

  useEffect(() => {
    let current = true;
    api
      .get<Banner[]>('/banners', { query: { type: placement } })
      .then((answer) => current && setBanners(Array.isArray(answer) ? answer : []))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [placement]);

  if (banners.length === 0) return null;
  return (
    <aside className="sponsor-banners" aria-label={t('result.sponsors')}>
      {banners.map((banner) => {
        const image = <img src={banner.imageUrl} alt={banner.alt[lang]} className="sponsor-banners__image" />;
        return (
          <div key={banner.id} className="sponsor-banners__item">
            {banner.linkUrl ? (
              <a href={banner.linkUrl} target="_blank" rel="noopener noreferrer">
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
