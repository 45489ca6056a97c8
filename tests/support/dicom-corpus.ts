import { fileURLToPath } from 'node:url';

/** The real DICOM files of tests/fixtures/dicom (their README says where they come from). */
export const DICOM_CORPUS_DIR = fileURLToPath(new URL('../fixtures/dicom', import.meta.url));
