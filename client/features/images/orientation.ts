/**
 * How to turn a mammogram so it hangs as radiologists hang it: a right breast on the viewer's left
 * with its chest wall to the right (rows running from nipple to chest wall: posterior, "P"), a
 * left breast the mirror image ("A"), the head end up (columns running towards the feet, "F").
 * The stored image says which way it runs in Patient Orientation (0020,0020), e.g. "A\R".
 */
export type Flips = { flipHorizontal: boolean; flipVertical: boolean };

const NONE: Flips = { flipHorizontal: false, flipVertical: false };

export function hangingFlips(laterality: 'R' | 'L' | null, patientOrientation: string | undefined): Flips {
  if (!laterality || !patientOrientation) return NONE;
  const [rows = '', columns = ''] = patientOrientation.toUpperCase().split('\\');
  const wantedRows = laterality === 'R' ? 'P' : 'A';
  const opposite = laterality === 'R' ? 'A' : 'P';
  return {
    // Only a clear opposite flips: an oblique code ("AL") or an unknown one is shown as stored.
    flipHorizontal: rows.startsWith(opposite) && !rows.includes(wantedRows),
    flipVertical: columns.startsWith('H'),
  };
}
