/**
 * What other areas (survey, ISO, orders, the provider API) use of the patient's screening. This
 * area depends on none of them; what it shows of theirs (the disc image's status on the result
 * page) reaches it through its deps.
 */
export { ownedScreeningId, patientIdOf, refuse } from './ownership';
export { findPatientScreening } from './screening-repo';
export { findDocument } from './documents-repo';
