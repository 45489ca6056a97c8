import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CommandError, UsageError, type Command, type CommandContext } from '../command';
import { PORTAL_URL_OPTION, ProviderHttp } from '../provider-http';

/** STOW-RS requests of at most this many images and bytes: progress after each, and no request a proxy would refuse for size. */
const IMAGES_PER_REQUEST = 20;
const BYTES_PER_REQUEST = 256 * 1024 * 1024;

const manifestSchema = z.object({
  patient: z.looseObject({ externalId: z.string().min(1).max(64) }),
  screening: z.looseObject({ externalId: z.string().min(1).max(64), accessionNumber: z.string().min(1).max(16).optional() }),
  documents: z
    .array(
      z.object({
        externalId: z.string().min(1).max(64),
        kind: z.enum(['description', 'referral', 'facilities_list']),
        language: z.enum(['pl', 'en', 'de']).default('pl'),
        file: z.string().min(1),
      }),
    )
    .default([]),
  /** A folder of DICOM files (searched recursively), relative to the bundle. */
  images: z.string().min(1).optional(),
  result: z.looseObject({ descriptionsStatus: z.enum(['in_progress', 'completed']) }).optional(),
  invite: z.object({ channel: z.enum(['email', 'sms']), language: z.enum(['pl', 'en']).default('pl') }).optional(),
});
type Manifest = z.infer<typeof manifestSchema>;

function readManifest(folder: string): Manifest {
  const file = path.join(folder, 'manifest.json');
  if (!existsSync(file)) throw new UsageError(`${folder} has no manifest.json`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CommandError(`manifest.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new CommandError(
      `manifest.json: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ')}`,
    );
  }
  for (const document of parsed.data.documents) {
    if (!existsSync(path.join(folder, document.file)))
      throw new CommandError(`manifest.json names ${document.file}, which is not in ${folder}`);
  }
  if (parsed.data.images && !existsSync(path.join(folder, parsed.data.images))) {
    throw new CommandError(`manifest.json names the image folder ${parsed.data.images}, which is not in ${folder}`);
  }
  return parsed.data;
}

/** Every file under a folder, in a stable order; DICOMDIR indexes are not images. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.toUpperCase() !== 'DICOMDIR')
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

type StowAnswer = Record<string, { Value?: Record<string, { Value?: unknown[] }>[] } | undefined>;

async function storeImages(http: ProviderHttp, files: string[], context: CommandContext): Promise<{ stored: number; failed: string[] }> {
  let stored = 0;
  const failed: string[] = [];
  for (let start = 0; start < files.length;) {
    const batch: string[] = [];
    let bytes = 0;
    while (start + batch.length < files.length && batch.length < IMAGES_PER_REQUEST) {
      const size = statSync(files[start + batch.length]!).size;
      if (batch.length > 0 && bytes + size > BYTES_PER_REQUEST) break;
      batch.push(files[start + batch.length]!);
      bytes += size;
    }
    const boundary = `portal-${randomBytes(12).toString('hex')}`;
    const answer = await http.call('POST', '/dicomweb/studies', {
      files: batch,
      sizes: batch.map((file) => statSync(file).size),
      boundary,
      contentType: `multipart/related; type="application/dicom"; boundary=${boundary}`,
    });
    if (![200, 202, 409].includes(answer.status)) {
      throw new CommandError(`storing images answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    const body = answer.body as StowAnswer;
    const storedHere = body['00081199']?.Value?.length ?? 0;
    const failures = body['00081198']?.Value ?? [];
    stored += storedHere;
    for (const failure of failures) {
      const uid = failure['00081155']?.Value?.[0];
      const reason = failure['00081197']?.Value?.[0];
      failed.push(
        `${uid ?? '(unreadable)'}: failure reason ${typeof reason === 'number' ? `0x${reason.toString(16).toUpperCase()}` : reason}`,
      );
    }
    start += batch.length;
    context.stdout.write(`  images ${start}/${files.length} sent (${stored} stored, ${failed.length} refused)\n`);
  }
  return { stored, failed };
}

const importBundle: Command = {
  path: ['import-bundle'],
  summary: 'Import a screening from a folder: manifest.json, its PDFs and its DICOM images',
  description: [
    "Works through the running portal's provider API, so the import is checked, audited and",
    "idempotent exactly as a RIS's calls are: running it again changes nothing. The key needs",
    'patients:write, screenings:write, documents:write and images:write (and patients:write to invite).',
    "The access code of a new screening is printed once: write it on the patient's slip.",
    'manifest.json: { "patient": {externalId, firstName, lastName, birthAt, pesel?, email?, phoneNumber?},',
    '  "screening": {externalId, examinedAt, absorbedDoseMgy?, facility?, accessionNumber?},',
    '  "documents": [{externalId, kind: description|referral|facilities_list, language: pl|en|de, file}],',
    '  "images": "<folder of DICOM files whose AccessionNumber is the screening\'s>",',
    '  "result": {descriptionsStatus: in_progress|completed, birads?, signedAt?}, "invite": {channel, language}? }',
  ].join('\n'),
  args: [{ name: 'folder', description: 'the bundle: a folder with manifest.json' }],
  options: { ...PORTAL_URL_OPTION },
  examples: ['import-bundle ./2026-11-20-nowak --url https://portal.example.pl'],
  async run({ args, options }, context) {
    const folder = path.resolve(args[0]!);
    const manifest = readManifest(folder);
    const http = ProviderHttp.from(options, context);
    const { patient, screening } = manifest;
    const out = (line: string) => context.stdout.write(`${line}\n`);

    const patientAnswer = await http.expect('PUT', `/patients/${encodeURIComponent(patient.externalId)}`, {
      json: withoutExternalId(patient),
    });
    out(`patient ${patient.externalId}: ${patientAnswer.status === 201 ? 'created' : 'up to date'}`);

    // The same key on every run of this bundle: a repeated import gets the first answer, with the
    // access code. A changed manifest is a real update, so its key is new.
    const screeningBody = { ...withoutExternalId(screening), patientExternalId: patient.externalId };
    const bodyHash = createHash('sha256').update(JSON.stringify(screeningBody)).digest('hex').slice(0, 16);
    const screeningAnswer = await http.expect(
      'PUT',
      `/screenings/${encodeURIComponent(screening.externalId)}`,
      { json: screeningBody },
      { 'Idempotency-Key': `import-bundle:${screening.externalId}:${bodyHash}` },
    );
    const accessCode = (screeningAnswer.body as { accessCode?: string }).accessCode;
    const replayed = screeningAnswer.headers.get('idempotent-replayed') === 'true';
    out(`screening ${screening.externalId}: ${replayed ? 'imported before' : screeningAnswer.status === 201 ? 'created' : 'up to date'}`);

    for (const document of manifest.documents) {
      const query = new URLSearchParams({ kind: document.kind, language: document.language });
      await http.expect(
        'PUT',
        `/screenings/${encodeURIComponent(screening.externalId)}/documents/${encodeURIComponent(document.externalId)}?${query}`,
        { bytes: readFileSync(path.join(folder, document.file)), contentType: 'application/pdf' },
      );
      out(`document ${document.file}: stored`);
    }

    if (manifest.images) {
      const files = filesUnder(path.join(folder, manifest.images));
      out(`images: ${files.length} files`);
      const { stored, failed } = await storeImages(http, files, context);
      if (failed.length > 0) {
        throw new CommandError(
          `${failed.length} of ${files.length} images were refused:\n  ${failed.join('\n  ')}\nFix them and run the import again; what was stored stays.`,
        );
      }
      out(`images: ${stored} stored`);
    }

    if (manifest.result) {
      await http.expect('PUT', `/screenings/${encodeURIComponent(screening.externalId)}/result`, { json: manifest.result });
      out(`result: ${manifest.result.descriptionsStatus}`);
    }
    if (manifest.invite) {
      await http.expect('POST', `/patients/${encodeURIComponent(patient.externalId)}/invitation`, { json: manifest.invite });
      out(`invitation: sent by ${manifest.invite.channel}`);
    }
    out(
      accessCode
        ? `ACCESS CODE (shown once, for the patient's slip): ${accessCode}`
        : 'access code: given when the screening was first imported',
    );
  },
};

function withoutExternalId<T extends { externalId: string }>(record: T): Omit<T, 'externalId'> {
  const { externalId: _externalId, ...rest } = record;
  return rest;
}

export const importCommands: Command[] = [importBundle];
