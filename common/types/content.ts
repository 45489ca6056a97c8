/** `GET /api/banners` (docs/api.md "Banners and instructions"): the sponsor banners of the result page. */

export type BannerPosition = 'top-placement' | 'bottom-placement';

export type Banner = { id: number; position: BannerPosition; imageUrl: string; linkUrl: string | null; alt: { pl: string; en: string } };
