import type { DocumentLanguage } from './labels';
import { PdfLayout, type ProviderInfo } from './layout';

export type InstructionLanguage = Extract<DocumentLanguage, 'pl' | 'en'>;

type InstructionSection = { heading: string; paragraphs?: string[]; bullets?: string[] };

export type InstructionContent = { title: string; intro: string; sections: InstructionSection[] };

/** Patient-facing leaflets: a title, a lead paragraph and headed sections. */
export async function renderInstruction(
  provider: ProviderInfo,
  language: InstructionLanguage,
  content: InstructionContent,
  issuedAt?: Date,
): Promise<Uint8Array> {
  const layout = await PdfLayout.create({ provider, language, title: content.title, issuedAt });
  layout.paragraph(content.intro);
  for (const section of content.sections) {
    layout.heading(section.heading);
    for (const paragraph of section.paragraphs ?? []) layout.paragraph(paragraph);
    if (section.bullets) layout.bullets(section.bullets);
  }
  return layout.save();
}
