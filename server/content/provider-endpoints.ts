import { z } from 'zod';
import { MAX_ID } from '../lib/parse';
import { defineEndpoint, type ProviderEndpoint } from '../provider/endpoint';
import type { AdminBanner } from './banner-admin-repo';
import { createBannerAdminService, type BannerAdminDeps } from './banner-admin-service';

const TAG = 'Catalog';
const POSITIONS = ['top-placement', 'bottom-placement'] as const;

/** An image or link: an absolute https (or http) address, or a path of the portal's own site. */
const url = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => /^\/(?!\/)\S*$/.test(value) || /^https?:\/\/\S+$/i.test(value), {
    message: 'An https:// address or a path starting with /.',
  });

const bannerSchema = z.object({
  id: z.number().int(),
  position: z.enum(POSITIONS),
  imageUrl: z.string(),
  linkUrl: z.string().nullable(),
  altPl: z.string(),
  altEn: z.string(),
  sortOrder: z.number().int().describe('Smaller first within its position.'),
  active: z.boolean().describe('Shown on the result page.'),
});

const fields = {
  position: z.enum(POSITIONS),
  imageUrl: url,
  linkUrl: url.nullable(),
  altPl: z.string().trim().min(1).max(300),
  altEn: z.string().trim().min(1).max(300),
  sortOrder: z.number().int().min(-1000).max(1000),
  active: z.boolean(),
};

const createBody = z.strictObject({
  ...fields,
  linkUrl: fields.linkUrl.optional(),
  sortOrder: fields.sortOrder.optional(),
  active: fields.active.optional(),
});
const updateBody = z.strictObject(fields).partial();

const bannerParams = z.object({ id: z.coerce.number().int().min(1).max(MAX_ID).catch(0).describe("The portal's banner id.") });

const bannerBody = (banner: AdminBanner): z.output<typeof bannerSchema> => banner;

/** The provider API's calls about the sponsor banners (scope catalog:write), over the banner service. */
export function contentEndpoints(deps: BannerAdminDeps): ProviderEndpoint[] {
  const banners = createBannerAdminService(deps);
  return [
    defineEndpoint({
      method: 'get',
      path: '/banners',
      operationId: 'listBanners',
      summary: 'List the banners, shown or not',
      tag: TAG,
      scope: 'catalog:write',
      responses: { 200: { description: 'The banners by position and order.', schema: z.object({ banners: z.array(bannerSchema) }) } },
      async handle() {
        return { status: 200, body: { banners: (await banners.list()).map(bannerBody) } };
      },
    }),

    defineEndpoint({
      method: 'post',
      path: '/banners',
      operationId: 'createBanner',
      summary: 'Add a banner',
      tag: TAG,
      scope: 'catalog:write',
      idempotent: true,
      request: { body: createBody },
      responses: { 201: { description: 'The banner.', schema: bannerSchema } },
      async handle({ body }) {
        const banner = await banners.create(body);
        return { status: 201, body: bannerBody(banner), object: { type: 'banner', id: banner.id } };
      },
    }),

    defineEndpoint({
      method: 'patch',
      path: '/banners/:id',
      operationId: 'updateBanner',
      summary: 'Change a banner',
      tag: TAG,
      scope: 'catalog:write',
      request: { params: bannerParams, body: updateBody },
      responses: { 200: { description: 'The banner after the change.', schema: bannerSchema } },
      async handle({ params, body }) {
        const banner = await banners.update(params.id, body);
        return { status: 200, body: bannerBody(banner), object: { type: 'banner', id: banner.id } };
      },
    }),

    defineEndpoint({
      method: 'delete',
      path: '/banners/:id',
      operationId: 'deactivateBanner',
      summary: 'Take a banner off the result page',
      description: 'The banner is deactivated, not deleted (PATCH `active: true` shows it again); calling it again changes nothing.',
      tag: TAG,
      scope: 'catalog:write',
      request: { params: bannerParams },
      responses: { 200: { description: 'The banner, inactive.', schema: bannerSchema } },
      async handle({ params }) {
        const banner = await banners.deactivate(params.id);
        return { status: 200, body: bannerBody(banner), object: { type: 'banner', id: banner.id } };
      },
    }),
  ];
}
