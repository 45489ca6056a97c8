import type { Db } from '../db';
import type { UserLanguage } from '../lib/parse';
import type { BannerPosition } from '../../common/types/content';
import { findInstruction, listActiveBanners, type InstructionType } from './repo';

export type ContentDeps = { db: Db };

/** What the provider publishes for every patient alike: sponsor banners and support materials. */
export function createContentService({ db }: ContentDeps) {
  return {
    banners: (position: BannerPosition) => listActiveBanners(db, position),
    instruction: (type: InstructionType, language: UserLanguage) => findInstruction(db, type, language),
  };
}
