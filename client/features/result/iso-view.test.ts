import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { isoGenerateErrorKey, isoViewOf } from './iso-view';

describe('the ISO section by status (spec section 4)', () => {
  it.each([
    ['no_request', 'generate'],
    ['removed', 'generate'],
    ['new', 'accepted'],
    ['in_progress', 'accepted'],
    ['done', 'download'],
    ['empty', 'hidden'],
  ])('%s shows %s', (status, view) => {
    expect(isoViewOf(status)).toBe(view);
  });
});

describe('ISO generate failures (spec section 8)', () => {
  it('tells a busy generator, a lost connection and any other failure apart', () => {
    expect(isoGenerateErrorKey(new ApiError({ status: 500, code: 'ISO_GENERATOR_BUSY' }))).toBe('result.iso.busy');
    expect(isoGenerateErrorKey(new ApiError({ status: 503, code: 'NO_CONNECTION' }))).toBe('result.iso.noConnection');
    expect(isoGenerateErrorKey(new ApiError({ status: 500, code: 'INTERNAL' }))).toBe('result.iso.generateFailed');
    expect(isoGenerateErrorKey(new ApiError({ status: 404, code: 'NOT_FOUND' }))).toBe('result.iso.generateFailed');
  });
});
