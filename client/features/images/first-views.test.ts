import { describe, expect, it } from 'vitest';
import type { ImageRef, ImageSet } from '@common/types/images';
import { fittedPlacement } from './first-view-draw';
import { imagesShownFirst } from './first-views';

const image = (id: string, laterality: 'R' | 'L' | null, viewPosition: string | null): ImageRef => ({
  id,
  laterality,
  viewPosition,
  studyDate: null,
  modality: 'MG',
  transferSyntaxUid: null,
  rows: null,
  columns: null,
  sizeBytes: 1,
});
const upload = (images: ImageRef[]): ImageSet => ({ kind: 'upload', studyInstanceUid: '1.2.3', studyDate: null, images });

describe('imagesShownFirst', () => {
  const set = upload([
    image('lmlo', 'L', 'MLO'),
    image('rcc', 'R', 'CC'),
    image('xccl', 'R', 'XCCL'),
    image('ml', 'L', 'ML'),
    image('lcc', 'L', 'CC'),
  ]);

  it('downloads ahead the hung views a wide screen shows and the first image of the pager', () => {
    expect(imagesShownFirst(set, true).map((shown) => shown.id)).toEqual(['rcc', 'lcc', 'lmlo', 'xccl']);
  });

  it('downloads ahead only the view a phone opens with', () => {
    expect(imagesShownFirst(set, false).map((shown) => shown.id)).toEqual(['rcc', 'xccl']);
  });
});

describe('fittedPlacement', () => {
  it('fits a tall mammogram to the height of a wide box, centred', () => {
    expect(fittedPlacement(4096, 6144, 880, 600)).toEqual({ x: 240, y: 0, width: 400, height: 600 });
  });

  it('fits a wide image to the width of a tall box, centred', () => {
    expect(fittedPlacement(400, 200, 200, 500)).toEqual({ x: 0, y: 200, width: 200, height: 100 });
  });
});
