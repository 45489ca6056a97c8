import { describe, expect, it } from 'vitest';
import { keyAction, presetWindow, steppedWindow } from './view-actions';

describe('keyAction', () => {
  it('maps the documented keys', () => {
    expect(keyAction('+')).toEqual({ kind: 'zoom', factor: 1.25 });
    expect(keyAction('-')).toEqual({ kind: 'zoom', factor: 0.8 });
    expect(keyAction('ArrowLeft')).toEqual({ kind: 'pan', dx: -40, dy: 0 });
    expect(keyAction('w')?.kind).toBe('window');
    expect(keyAction('I')).toEqual({ kind: 'invert' });
    expect(keyAction('0')).toEqual({ kind: 'reset' });
    expect(keyAction('PageDown')).toEqual({ kind: 'page', step: 1 });
  });

  it('leaves Tab, Enter and letters it does not use to the browser', () => {
    expect(keyAction('Tab')).toBeNull();
    expect(keyAction('Enter')).toBeNull();
    expect(keyAction('x')).toBeNull();
  });
});

describe('windows', () => {
  const base = { lower: 1000, upper: 3000 };

  it('narrows and widens about the centre, and moves the centre by a share of the width', () => {
    expect(steppedWindow(base, 0.5, 0)).toEqual({ lower: 1500, upper: 2500 });
    expect(steppedWindow(base, 1, 0.1)).toEqual({ lower: 1200, upper: 3200 });
  });

  it('derives the presets from the image’s own window', () => {
    expect(presetWindow(base, 'default')).toEqual(base);
    expect(presetWindow(base, 'high')).toEqual({ lower: 1500, upper: 2500 });
    expect(presetWindow(base, 'low').upper - presetWindow(base, 'low').lower).toBeCloseTo(3200);
  });

  it('never collapses the window to nothing', () => {
    const narrow = steppedWindow({ lower: 10, upper: 10.5 }, 0.1, 0);
    expect(narrow.upper - narrow.lower).toBe(1);
  });
});
