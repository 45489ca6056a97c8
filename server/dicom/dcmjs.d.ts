// dcmjs ships no type declarations; this covers the part of its API the portal uses.
declare module 'dcmjs' {
  type DenaturalizedDataset = Record<string, { vr: string; Value?: unknown[] }>;
  type NaturalDataset = Record<string, unknown>;

  class DicomDict {
    constructor(meta: DenaturalizedDataset);
    meta: DenaturalizedDataset;
    dict: DenaturalizedDataset;
    write(options?: { allowInvalidVRLength?: boolean; fragmentMultiframe?: boolean }): ArrayBuffer;
  }

  const dcmjs: {
    data: {
      DicomDict: typeof DicomDict;
      DicomMessage: {
        readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): DicomDict;
      };
      DicomMetaDictionary: {
        naturalizeDataset(dataset: DenaturalizedDataset): NaturalDataset;
        denaturalizeDataset(dataset: NaturalDataset): DenaturalizedDataset;
      };
    };
  };
  export default dcmjs;
}
