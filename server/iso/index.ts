/** What other areas use of the ISO disc images (the DICOM upload invalidates built images). */
export { invalidatePatientIsoImages } from './retention';
