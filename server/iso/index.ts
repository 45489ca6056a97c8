/**
 * What other areas use of the ISO disc images: new DICOM instances of a patient drop her built
 * images (STOW-RS after its commit; her own upload in the statement that stores them, then deletes
 * their files).
 */
export { invalidatePatientIsoImages, removeIsoFiles } from './retention';
export { doneImagesOfPatientRemovedWhen } from './repo';
