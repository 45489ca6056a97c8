import { describe, expect, it } from 'vitest';
import { classifyLoadError, isBlankDecode, isCutShort } from './load-errors';

describe('classifyLoadError', () => {
  it('reads a failed request as a failed download', () => {
    const xhr = { readyState: 4, status: 404 };
    expect(classifyLoadError({ error: xhr })).toBe('loadFailed');
    expect(classifyLoadError(xhr)).toBe('loadFailed');
  });

  it('reads anything else as an image that cannot be decoded', () => {
    expect(classifyLoadError({ error: new Error('no decoder for transfer syntax'), dataSet: {} })).toBe('undecodable');
    expect(classifyLoadError(new Error('dicomParser.readPart10Header: DICM prefix not found'))).toBe('undecodable');
    expect(classifyLoadError(undefined)).toBe('undecodable');
  });
});

describe('isBlankDecode', () => {
  it('treats a picture of one value as not decoded', () => {
    expect(isBlankDecode({ minPixelValue: 0, maxPixelValue: 0 })).toBe(true);
    expect(isBlankDecode({ minPixelValue: 0, maxPixelValue: 4095 })).toBe(false);
    expect(isBlankDecode(undefined)).toBe(false);
  });
});

describe('isCutShort', () => {
  const JPEG_2000 = '1.2.840.10008.1.2.4.90';

  it('finds a JPEG or JPEG 2000 codestream that stops before FF D9', () => {
    expect(isCutShort(JPEG_2000, new Uint8Array([0xff, 0x52, 0x00, 0x0c]))).toBe(true);
    expect(isCutShort('1.2.840.10008.1.2.4.50', new Uint8Array([0x12, 0x34]))).toBe(true);
  });

  it('accepts a complete codestream, padded to an even length or not', () => {
    expect(isCutShort(JPEG_2000, new Uint8Array([0x00, 0xff, 0xd9]))).toBe(false);
    expect(isCutShort(JPEG_2000, new Uint8Array([0xff, 0xd9, 0x00]))).toBe(false);
  });

  it('does not judge syntaxes without an end marker', () => {
    expect(isCutShort('1.2.840.10008.1.2.1', new Uint8Array([0x12, 0x34]))).toBe(false);
    expect(isCutShort('1.2.840.10008.1.2.5', new Uint8Array([0x12, 0x34]))).toBe(false);
  });
});
