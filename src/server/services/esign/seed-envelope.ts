import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { applications } from '../../db/schema';
import { builtinProvider } from '../../esign/builtin';
import { fileStorage } from '../../files/storage';
import { envelopeDocumentTypes } from '../../../shared/rules/document-types';
import { generateContractDocuments } from './generate-contract-documents';

/**
 * The demo's prepared application (status esignPrepared) gets what POST /docusign/init would have
 * made: its contract set, its envelope and the certificate of advice ticked, so 'Notify client'
 * and the client's signing work on the demo data (docs/decisions.md: 283). Always the built-in
 * provider's: seeding never calls DocuSign, and an envelope is signed by the provider that made it
 * (docs/decisions.md 522), so the demo signs on the portal's page whatever ESIGN_PROVIDER says.
 */
export async function seedPreparedEnvelope(db: Database, config: Config, applicationId: number, staffUserId: number) {
  const made = await generateContractDocuments(db, fileStorage(config, db), config, applicationId, {
    uploadedBy: staffUserId,
  });
  const documents = made.filter((document) => envelopeDocumentTypes.includes(document.type));
  const { envelopeId } = await builtinProvider(db, config).createEnvelope(db, {
    applicationId,
    createdBy: staffUserId,
    documents,
  });
  await db.update(applications).set({ envelopeId, independentAdvice: true }).where(eq(applications.id, applicationId));
  return envelopeId;
}
