import { writePart10 } from './part10';
import { uidFromName } from './uids';

export const MG_FOR_PRESENTATION_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.1.2';

export type MammographyView = { laterality: 'R' | 'L'; position: 'CC' | 'MLO' };

/** The pixel matrix of a synthetic image; the demo's screening images are 256×320, 12 bits, MONOCHROME2. */
export type PixelFormat = {
  rows: number;
  columns: number;
  /** 8 is stored in 8-bit words, 12 and 16 in 16-bit words. */
  bitsStored: 8 | 12 | 16;
  /** MONOCHROME1 stores dense tissue as low values (shown bright by inverting), MONOCHROME2 as high ones. */
  photometric: 'MONOCHROME1' | 'MONOCHROME2';
};

const SCREENING_FORMAT: PixelFormat = { rows: 320, columns: 256, bitsStored: 12, photometric: 'MONOCHROME2' };
/** The pixel model below is drawn in 12-bit values; other depths are scaled from it. */
const MODEL_MAX_VALUE = 4095;

/** The four views of a screening mammogram, in the order radiologists hang them. */
const SCREENING_VIEWS: readonly MammographyView[] = [
  { laterality: 'R', position: 'CC' },
  { laterality: 'L', position: 'CC' },
  { laterality: 'R', position: 'MLO' },
  { laterality: 'L', position: 'MLO' },
];

export type SyntheticStudyInput = {
  patient: { firstName: string; lastName: string; birthAt: string; patientId: string };
  examinedAt: Date;
  accessionNumber: string;
};

export type SyntheticImage = {
  view: MammographyView;
  sopClassUid: string;
  sopInstanceUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  modality: 'MG';
  /** YYYY-MM-DD in Warsaw time, as the study date column stores it. */
  studyDate: string;
  bytes: Uint8Array;
};

/**
 * Four synthetic screening mammograms (RCC, LCC, RMLO, LMLO) of one patient as DICOM Part 10 files:
 * Digital Mammography X-Ray Image Storage - For Presentation, 16-bit MONOCHROME2, explicit VR
 * little endian. The pixels show a breast-shaped bright region with soft tissue texture on a dark
 * background; enough for a viewer to display something that looks like a mammogram.
 */
export function synthesizeScreeningStudy(input: SyntheticStudyInput): SyntheticImage[] {
  return SCREENING_VIEWS.map((view, index) =>
    synthesizeImage(input, view, index + 1, SCREENING_FORMAT, `${view.laterality}${view.position}`),
  );
}

/**
 * One synthetic mammogram of a study, in any pixel format. `imageName` tells apart the images of
 * one study (it makes the SOP Instance UID); the study and series UIDs come from the patient and
 * the examination, as for a screening.
 */
export function synthesizeImage(
  input: SyntheticStudyInput,
  view: MammographyView,
  instanceNumber: number,
  format: PixelFormat,
  imageName: string,
): SyntheticImage {
  const identity = `${input.patient.patientId}/${input.examinedAt.toISOString()}`;
  const studyInstanceUid = uidFromName(`study/${identity}`);
  const seriesInstanceUid = uidFromName(`series/${identity}`);
  const sopInstanceUid = uidFromName(`image/${identity}/${imageName}`);
  const { date, time } = warsawDateTime(input.examinedAt);
  const { rows, columns, bitsStored, photometric } = format;
  const bitsAllocated = bitsStored === 8 ? 8 : 16;
  const dataset = {
    SpecificCharacterSet: 'ISO_IR 192',
    ImageType: ['ORIGINAL', 'PRIMARY'],
    SOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
    SOPInstanceUID: sopInstanceUid,
    StudyDate: date,
    SeriesDate: date,
    AcquisitionDate: date,
    ContentDate: date,
    StudyTime: time,
    SeriesTime: time,
    AcquisitionTime: time,
    ContentTime: time,
    AccessionNumber: input.accessionNumber,
    Modality: 'MG',
    PresentationIntentType: 'FOR PRESENTATION',
    Manufacturer: 'Mammography Patient Portal (synthetic)',
    InstitutionName: 'Demo',
    ReferringPhysicianName: '',
    StudyDescription: 'Mammografia skryningowa',
    SeriesDescription: 'Mammografia',
    PatientName: `${input.patient.lastName}^${input.patient.firstName}`,
    PatientID: input.patient.patientId,
    PatientBirthDate: input.patient.birthAt.replace(/-/g, ''),
    PatientSex: 'F',
    BodyPartExamined: 'BREAST',
    BurnedInAnnotation: 'NO',
    ViewPosition: view.position,
    PositionerType: 'MAMMOGRAPHIC',
    DetectorType: 'DIRECT',
    StudyInstanceUID: studyInstanceUid,
    SeriesInstanceUID: seriesInstanceUid,
    StudyID: '1',
    SeriesNumber: '1',
    InstanceNumber: String(instanceNumber),
    PatientOrientation: patientOrientation(view),
    ImageLaterality: view.laterality,
    AnatomicRegionSequence: [{ CodeValue: 'T-04000', CodingSchemeDesignator: 'SRT', CodeMeaning: 'Breast' }],
    ViewCodeSequence: [viewCode(view)],
    SamplesPerPixel: 1,
    PhotometricInterpretation: photometric,
    Rows: rows,
    Columns: columns,
    PixelSpacing: ['0.4', '0.4'],
    ImagerPixelSpacing: ['0.4', '0.4'],
    BitsAllocated: bitsAllocated,
    BitsStored: bitsStored,
    HighBit: bitsStored - 1,
    PixelRepresentation: 0,
    PixelIntensityRelationship: 'LOG',
    PixelIntensityRelationshipSign: photometric === 'MONOCHROME2' ? 1 : -1,
    WindowCenter: String(2 ** (bitsStored - 1)),
    WindowWidth: String(2 ** bitsStored),
    RescaleIntercept: '0',
    RescaleSlope: '1',
    RescaleType: 'US',
    LossyImageCompression: '00',
    // PS3.3 C.8.11.7: IDENTITY for MONOCHROME2, INVERSE for MONOCHROME1.
    PresentationLUTShape: photometric === 'MONOCHROME2' ? 'IDENTITY' : 'INVERSE',
    PixelData: [breastPixels(view, identity, format).buffer],
    _vrMap: { PixelData: bitsAllocated === 8 ? 'OB' : 'OW' },
  };
  return {
    view,
    sopClassUid: MG_FOR_PRESENTATION_SOP_CLASS,
    sopInstanceUid,
    studyInstanceUid,
    seriesInstanceUid,
    modality: 'MG' as const,
    studyDate: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`,
    bytes: writePart10(dataset, MG_FOR_PRESENTATION_SOP_CLASS, sopInstanceUid),
  };
}

/**
 * The size of a full-field digital mammogram as a detector delivers it: 4096×6144 pixels of 16
 * bits, 48 MiB of pixel data (the bench's and the journeys' "50 MB mammogram"). Its per-pixel
 * noise keeps it from compressing to nothing, as a real image would not.
 */
export const LARGE_MAMMOGRAM_FORMAT: PixelFormat = { rows: 6144, columns: 4096, bitsStored: 16, photometric: 'MONOCHROME2' };

/** One large single-view mammogram (a right CC unless told otherwise); takes a second or two and ~150 MB of memory. */
export function synthesizeLargeMammogram(
  input: SyntheticStudyInput,
  view: MammographyView = { laterality: 'R', position: 'CC' },
): SyntheticImage {
  return synthesizeImage(input, view, 1, LARGE_MAMMOGRAM_FORMAT, `large/${view.laterality}${view.position}`);
}

/** Row direction and column direction of the displayed image (PS3.3 C.8.11.7 mammography rules). */
function patientOrientation(view: MammographyView): string[] {
  const towardsChestWall = view.laterality === 'R' ? 'L' : 'R';
  return [towardsChestWall === 'L' ? 'A' : 'P', view.position === 'CC' ? towardsChestWall : 'F'];
}

function viewCode(view: MammographyView): Record<string, string> {
  return view.position === 'CC'
    ? { CodeValue: 'R-10242', CodingSchemeDesignator: 'SRT', CodeMeaning: 'cranio-caudal' }
    : { CodeValue: 'R-10226', CodingSchemeDesignator: 'SRT', CodeMeaning: 'medio-lateral oblique' };
}

/**
 * A half ellipse growing from the chest wall (left edge for a right breast, right edge for a left
 * one), brighter towards the chest wall, with a faint skin line and seeded noise for texture. Drawn
 * in 12-bit values and scaled to the format's depth; the texture's waves keep their size relative
 * to the breast whatever the matrix.
 */
function breastPixels(view: MammographyView, seed: string, format: PixelFormat): Uint8Array | Uint16Array {
  const { rows: ROWS, columns: COLUMNS, bitsStored, photometric } = format;
  const maxValue = 2 ** bitsStored - 1;
  const scale = maxValue / MODEL_MAX_VALUE;
  const waveScale = SCREENING_FORMAT.columns / COLUMNS;
  const pixels = bitsStored === 8 ? new Uint8Array(ROWS * COLUMNS) : new Uint16Array(ROWS * COLUMNS);
  const random = seededRandom(seed + view.laterality + view.position);
  const centreY = view.position === 'CC' ? ROWS / 2 : ROWS * 0.42;
  const radiusY = view.position === 'CC' ? ROWS * 0.42 : ROWS * 0.5;
  const radiusX = COLUMNS * 0.78;
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLUMNS; x++) {
      const depth = view.laterality === 'R' ? x : COLUMNS - 1 - x;
      const dx = depth / radiusX;
      const dy = (y - centreY) / radiusY;
      const r = Math.sqrt(dx * dx + dy * dy);
      const wx = x * waveScale;
      const wy = y * waveScale;
      let value = 40 + random() * 30;
      if (r < 1) {
        const density = 0.55 + 0.35 * (1 - dx) + 0.08 * Math.sin(wx * 0.21 + wy * 0.13) * Math.cos(wy * 0.17);
        value = 900 + density * 2200 + (random() - 0.5) * 260;
        if (r > 0.97) value += 500; // skin line
      } else if (view.position === 'MLO' && depth < COLUMNS * 0.18 && y < ROWS * 0.35) {
        value = 2600 + (random() - 0.5) * 200; // pectoral muscle in the upper chest-wall corner
      }
      const stored = Math.max(0, Math.min(maxValue, Math.round(value * scale)));
      pixels[y * COLUMNS + x] = photometric === 'MONOCHROME2' ? stored : maxValue - stored;
    }
  }
  return pixels;
}

function seededRandom(seed: string): () => number {
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function warsawDateTime(instant: Date): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Warsaw',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}${parts.month}${parts.day}`, time: `${parts.hour}${parts.minute}${parts.second}` };
}
