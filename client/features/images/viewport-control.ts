import type { StackViewport, Types } from '@cornerstonejs/core';
import { presetWindow, steppedWindow, type ViewAction, type VoiRange } from './view-actions';
import type { SlotName } from './hanging';
import { hangingFlips, type Flips } from './orientation';

/**
 * Applies a button's or key's action to a cornerstone stack viewport. `baseWindow` is the image's
 * own window, kept from its first drawing, from which the presets are derived; `patientOrientation`
 * the image's Patient Orientation, for hanging it again on reset.
 */
export function applyViewAction(
  viewport: StackViewport,
  action: ViewAction,
  baseWindow: VoiRange | null,
  slot: SlotName | null,
  patientOrientation: string | undefined,
): void {
  switch (action.kind) {
    case 'zoom':
      viewport.setZoom(viewport.getZoom() * action.factor);
      break;
    case 'pan': {
      // cornerstone's pan is in canvas pixels: a step is the same size on screen at any zoom.
      const [x, y] = viewport.getPan();
      viewport.setPan([x + action.dx, y + action.dy] as Types.Point2);
      break;
    }
    case 'window': {
      const range = viewport.getProperties().voiRange;
      if (range) viewport.setProperties({ voiRange: steppedWindow(range, action.widthFactor, action.centerShift) });
      break;
    }
    case 'preset':
      if (baseWindow) viewport.setProperties({ voiRange: presetWindow(baseWindow, action.preset) });
      break;
    case 'invert':
      viewport.setProperties({ invert: !viewport.getProperties().invert });
      break;
    case 'reset':
      viewport.resetProperties();
      viewport.resetCamera();
      if (baseWindow) viewport.setProperties({ voiRange: baseWindow });
      hangAsRadiologists(viewport, slot, patientOrientation);
      break;
    case 'page':
      // Handled by the pager, which knows the stack and releases what it pages past.
      return;
  }
  viewport.render();
}

/**
 * Turns the drawn image as radiologists hang it (orientation.ts), from the Patient Orientation of
 * the file cornerstone's loader parsed; images outside the four slots are shown as stored.
 */
export function hangAsRadiologists(viewport: StackViewport, slot: SlotName | null, patientOrientation: string | undefined): void {
  if (!slot) return;
  viewport.setCamera(slotFlips(slot, patientOrientation));
}

/** The flips of an image hung in `slot` (none outside the four slots); the first view's picture turns the same way. */
export function slotFlips(slot: SlotName | null, patientOrientation: string | undefined): Flips {
  return hangingFlips(slot ? (slot.startsWith('R') ? 'R' : 'L') : null, patientOrientation);
}

/** The window the viewport shows now (after the image's own was applied on first drawing). */
export function currentWindow(viewport: StackViewport): VoiRange | null {
  return viewport.getProperties().voiRange ?? null;
}
