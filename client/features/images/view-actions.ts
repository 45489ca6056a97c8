/**
 * What the viewer's buttons and keys do to one image, as plain steps on its viewport, so the
 * keyboard and the visible buttons share one definition (the mouse and touch go through
 * cornerstone's tools).
 */
export type ViewAction =
  | { kind: 'zoom'; factor: number }
  | { kind: 'pan'; dx: number; dy: number }
  | { kind: 'window'; widthFactor: number; centerShift: number }
  | { kind: 'preset'; preset: ContrastPreset }
  | { kind: 'invert' }
  | { kind: 'reset' }
  | { kind: 'page'; step: number };

/** W/L presets relative to the image's own window (from its header, else its pixel range). */
export type ContrastPreset = 'default' | 'high' | 'low';
export const CONTRAST_PRESETS: readonly ContrastPreset[] = ['default', 'high', 'low'];
const PRESET_WIDTH: Record<ContrastPreset, number> = { default: 1, high: 0.5, low: 1.6 };

const ZOOM_STEP = 1.25;
/** A pan step in CSS pixels of the viewport; a window step as a share of the window's width. */
const PAN_STEP = 40;
const WINDOW_STEP = 0.1;

/**
 * The keys of a focused viewport (listed in `images.viewport.keys`): + and − zoom, arrows pan,
 * W/S narrow or widen the window (contrast), A/D move it (brightness), I inverts, 0 resets,
 * Page Up/Down turn the pages of a stack. Anything else is left to the browser (Tab stays Tab).
 */
export function keyAction(key: string): ViewAction | null {
  switch (key) {
    case '+':
    case '=':
      return { kind: 'zoom', factor: ZOOM_STEP };
    case '-':
    case '_':
      return { kind: 'zoom', factor: 1 / ZOOM_STEP };
    case 'ArrowLeft':
      return { kind: 'pan', dx: -PAN_STEP, dy: 0 };
    case 'ArrowRight':
      return { kind: 'pan', dx: PAN_STEP, dy: 0 };
    case 'ArrowUp':
      return { kind: 'pan', dx: 0, dy: -PAN_STEP };
    case 'ArrowDown':
      return { kind: 'pan', dx: 0, dy: PAN_STEP };
    case 'w':
    case 'W':
      return { kind: 'window', widthFactor: 1 - WINDOW_STEP, centerShift: 0 };
    case 's':
    case 'S':
      return { kind: 'window', widthFactor: 1 + WINDOW_STEP, centerShift: 0 };
    case 'a':
    case 'A':
      return { kind: 'window', widthFactor: 1, centerShift: -WINDOW_STEP };
    case 'd':
    case 'D':
      return { kind: 'window', widthFactor: 1, centerShift: WINDOW_STEP };
    case 'i':
    case 'I':
      return { kind: 'invert' };
    case '0':
    case 'Home':
      return { kind: 'reset' };
    case 'PageDown':
      return { kind: 'page', step: 1 };
    case 'PageUp':
      return { kind: 'page', step: -1 };
    default:
      return null;
  }
}

export type VoiRange = { lower: number; upper: number };

/** The window after a W/S/A/D step: width scaled about its centre, centre moved by a share of the width. */
export function steppedWindow(range: VoiRange, widthFactor: number, centerShift: number): VoiRange {
  const width = Math.max(1, (range.upper - range.lower) * widthFactor);
  const center = (range.upper + range.lower) / 2 + (range.upper - range.lower) * centerShift;
  return { lower: center - width / 2, upper: center + width / 2 };
}

/** A preset window from the image's own (`base`): the same centre, a narrower or wider width. */
export function presetWindow(base: VoiRange, preset: ContrastPreset): VoiRange {
  return steppedWindow(base, PRESET_WIDTH[preset], 0);
}
