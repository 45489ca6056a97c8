import { writePart10 } from './part10';
import { uidFromName } from './uids';

export const MG_FOR_PRESENTATION_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.1.2';

const COLUMNS = 256;
const ROWS = 320;
const BITS_STORED = 12;
const MAX_VALUE = (1 << BITS_STORED) - 1;

type MammographyView = { laterality: 'R' | 'L'; position: 'CC' | 'MLO' };

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
  const identity = `${input.patient.patientId}/${input.examinedAt.toISOString()}`;
  const studyInstanceUid = uidFromName(`study/${identity}`);
  const seriesInstanceUid = uidFromName(`series/${identity}`);
  const { date, time } = warsawDateTime(input.examinedAt);
  return SCREENING_VIEWS.map((view, index) => {
    const sopInstanceUid = uidFromName(`image/${identity}/${view.laterality}${view.position}`);
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
      InstanceNumber: String(index + 1),
      PatientOrientation: patientOrientation(view),
      ImageLaterality: view.laterality,
      AnatomicRegionSequence: [{ CodeValue: 'T-04000', CodingSchemeDesignator: 'SRT', CodeMeaning: 'Breast' }],
      ViewCodeSequence: [viewCode(view)],
      SamplesPerPixel: 1,
      PhotometricInterpretation: 'MONOCHROME2',
      Rows: ROWS,
      Columns: COLUMNS,
      PixelSpacing: ['0.4', '0.4'],
      ImagerPixelSpacing: ['0.4', '0.4'],
      BitsAllocated: 16,
      BitsStored: BITS_STORED,
      HighBit: BITS_STORED - 1,
      PixelRepresentation: 0,
      PixelIntensityRelationship: 'LOG',
      PixelIntensityRelationshipSign: 1,
      WindowCenter: '2048',
      WindowWidth: '4096',
      RescaleIntercept: '0',
      RescaleSlope: '1',
      RescaleType: 'US',
      LossyImageCompression: '00',
      PresentationLUTShape: 'IDENTITY',
      PixelData: [breastPixels(view, identity).buffer],
      _vrMap: { PixelData: 'OW' },
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
  });
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
 * one), brighter towards the chest wall, with a faint skin line and seeded noise for texture.
 */
function breastPixels(view: MammographyView, seed: string): Uint16Array {
  const pixels = new Uint16Array(ROWS * COLUMNS);
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
      let value = 40 + random() * 30;
      if (r < 1) {
        const density = 0.55 + 0.35 * (1 - dx) + 0.08 * Math.sin(x * 0.21 + y * 0.13) * Math.cos(y * 0.17);
        value = 900 + density * 2200 + (random() - 0.5) * 260;
        if (r > 0.97) value += 500; // skin line
      } else if (view.position === 'MLO' && depth < COLUMNS * 0.18 && y < ROWS * 0.35) {
        value = 2600 + (random() - 0.5) * 200; // pectoral muscle in the upper chest-wall corner
      }
      pixels[y * COLUMNS + x] = Math.max(0, Math.min(MAX_VALUE, Math.round(value)));
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
