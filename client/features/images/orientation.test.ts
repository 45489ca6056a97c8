import { describe, expect, it } from 'vitest';
import { hangingFlips } from './orientation';

describe('hangingFlips', () => {
  it('mirrors a breast whose chest wall is on the outer side', () => {
    expect(hangingFlips('R', 'A\\L')).toEqual({ flipHorizontal: true, flipVertical: false });
    expect(hangingFlips('L', 'P\\F')).toEqual({ flipHorizontal: true, flipVertical: false });
  });

  it('leaves an image that already hangs right as it is', () => {
    expect(hangingFlips('R', 'P\\L')).toEqual({ flipHorizontal: false, flipVertical: false });
    expect(hangingFlips('L', 'A\\F')).toEqual({ flipHorizontal: false, flipVertical: false });
  });

  it('turns an image stored head down', () => {
    expect(hangingFlips('L', 'A\\H')).toEqual({ flipHorizontal: false, flipVertical: true });
  });

  it('shows an image with no side or no orientation as stored', () => {
    expect(hangingFlips(null, 'A\\L')).toEqual({ flipHorizontal: false, flipVertical: false });
    expect(hangingFlips('R', undefined)).toEqual({ flipHorizontal: false, flipVertical: false });
  });
});
