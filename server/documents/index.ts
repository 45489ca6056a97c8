/** The product's PDFs: result descriptions, referrals, facilities lists, instructions and the copy-request form. */
export { renderResultDescription } from './result-description';
export type { BiradsResult, BreastComposition, ExaminationType, ResultDescriptionInput } from './result-description';
export { renderReferral } from './referral';
export { renderFacilitiesList, type Facility } from './facilities-list';
export { renderIsoInstruction } from './iso-instruction';
export { renderReferralInformation } from './referral-information';
export { renderCopyRequestForm } from './copy-request-form';
export type { InstructionLanguage } from './instruction';
export type { DocumentLanguage } from './labels';
export type { Radiologist } from './radiologist';
export type { ProviderInfo } from './layout';
