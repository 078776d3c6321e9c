import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  applicationSteps,
  applications,
  auditEvents,
  clients,
  documentReviews,
  downloadTokens,
  drawdowns,
  emails,
  envelopeDocuments,
  envelopeEvents,
  envelopes,
  files,
  firms,
  lawyers,
  loans,
  postcodeAddresses,
  providerEvents,
  sessions,
  solicitors,
  userTokens,
  users,
} from '../../db/schema';

/** One table of the extract: the columns written, in this order, and the key it is read by. */
export interface ExtractTable {
  table: PgTable;
  /**
   * An allow-list (docs/decisions.md 251): a column not named here is not written, so a column
   * added to the schema later stays out of the extract until someone decides it may go in.
   */
  columns: readonly PgColumn[];
  /** The primary key, read in order in batches (keyset paging); each of its columns is in `columns`. */
  key: readonly PgColumn[];
}

/**
 * Every table the extract writes, one CSV each, in this order (parents before the rows naming
 * them). What is left out of a listed table, and why:
 * - users.password_hash, sessions.token_hash, user_tokens.token_hash, download_tokens.token_hash:
 *   credentials (or what a stolen copy is checked against);
 * - emails.text_body, emails.html_body: invitation and reset emails carry live sign-up and reset
 *   links; emails.last_error: the mail server's own words, for the operator's log only;
 * - files.key: where the stored bytes are (the extract carries no file contents);
 * - applications.envelope_url: the e-signature service's signing link, which lets its holder sign;
 * - envelopes.link_token_hash, envelopes.code_hash: what a signing link and a one-time code are checked against.
 */
export const extractTables: readonly ExtractTable[] = [
  {
    table: firms,
    columns: [firms.id, firms.name, firms.createdAt, firms.updatedAt, firms.deletedAt],
    key: [firms.id],
  },
  {
    table: users,
    columns: [
      users.id,
      users.email,
      users.role,
      users.firstName,
      users.surname,
      users.firmId,
      users.status,
      users.createdAt,
      users.updatedAt,
      users.deletedAt,
    ],
    key: [users.id],
  },
  {
    table: sessions,
    columns: [
      sessions.id,
      sessions.userId,
      sessions.createdAt,
      sessions.lastSeenAt,
      sessions.revokedAt,
      sessions.ip,
      sessions.userAgent,
    ],
    key: [sessions.id],
  },
  {
    table: userTokens,
    columns: [
      userTokens.id,
      userTokens.userId,
      userTokens.purpose,
      userTokens.expiresAt,
      userTokens.usedAt,
      userTokens.createdAt,
    ],
    key: [userTokens.id],
  },
  {
    table: lawyers,
    columns: [lawyers.id, lawyers.userId, lawyers.firmId, lawyers.createdAt, lawyers.deletedAt],
    key: [lawyers.id],
  },
  {
    table: solicitors,
    columns: [
      solicitors.id,
      solicitors.name,
      solicitors.address,
      solicitors.contactNumber,
      solicitors.email,
      solicitors.feePence,
      solicitors.deliveryMethod,
      solicitors.createdAt,
      solicitors.updatedAt,
      solicitors.deletedAt,
    ],
    key: [solicitors.id],
  },
  {
    table: clients,
    columns: [
      clients.id,
      clients.userId,
      clients.firstName,
      clients.lastName,
      clients.birthDate,
      clients.contactNumber,
      clients.createdAt,
      clients.updatedAt,
      clients.deletedAt,
    ],
    key: [clients.id],
  },
  {
    table: applications,
    columns: [
      applications.id,
      applications.lawyerId,
      applications.clientId,
      applications.status,
      applications.caseRef,
      applications.loanAmountPence,
      applications.kycAmlCheck,
      applications.credidCheck,
      applications.repaymentVehicle,
      applications.independentAdvice,
      applications.envelopeId,
      applications.startedAt,
      applications.createdAt,
      applications.updatedAt,
    ],
    key: [applications.id],
  },
  {
    table: applicationSteps,
    columns: [
      applicationSteps.applicationId,
      applicationSteps.step,
      applicationSteps.data,
      applicationSteps.version,
      applicationSteps.updatedBy,
      applicationSteps.updatedAt,
    ],
    key: [applicationSteps.applicationId, applicationSteps.step],
  },
  {
    table: files,
    columns: [
      files.id,
      files.applicationId,
      files.name,
      files.fileName,
      files.type,
      files.contentType,
      files.size,
      files.uploadedBy,
      files.createdAt,
      files.deletedAt,
    ],
    key: [files.id],
  },
  {
    table: documentReviews,
    columns: [
      documentReviews.applicationId,
      documentReviews.type,
      documentReviews.state,
      documentReviews.updatedBy,
      documentReviews.updatedAt,
    ],
    key: [documentReviews.applicationId, documentReviews.type],
  },
  {
    table: envelopes,
    columns: [
      envelopes.id,
      envelopes.applicationId,
      envelopes.provider,
      envelopes.status,
      envelopes.createdBy,
      envelopes.createdAt,
      envelopes.notifiedAt,
      envelopes.linkExpiresAt,
      envelopes.linkOpenedAt,
      envelopes.linkCodesSent,
      envelopes.codeExpiresAt,
      envelopes.codeAttempts,
      envelopes.signedAt,
      envelopes.signerUserId,
      envelopes.signerAddress,
      envelopes.signerDevice,
      envelopes.kind,
      envelopes.loanId,
      envelopes.amountPence,
      envelopes.remoteSigner,
      envelopes.completionCertificateFileId,
    ],
    key: [envelopes.id],
  },
  {
    table: envelopeDocuments,
    columns: [
      envelopeDocuments.id,
      envelopeDocuments.envelopeId,
      envelopeDocuments.position,
      envelopeDocuments.type,
      envelopeDocuments.fileId,
      envelopeDocuments.sha256,
      envelopeDocuments.signedFileId,
      envelopeDocuments.signedSha256,
      envelopeDocuments.padesLevel,
      envelopeDocuments.timestampDueAt,
      envelopeDocuments.timestampAttempts,
    ],
    key: [envelopeDocuments.id],
  },
  {
    table: envelopeEvents,
    columns: [
      envelopeEvents.id,
      envelopeEvents.envelopeId,
      envelopeEvents.type,
      envelopeEvents.userId,
      envelopeEvents.address,
      envelopeEvents.device,
      envelopeEvents.detail,
      envelopeEvents.at,
    ],
    key: [envelopeEvents.id],
  },
  {
    // What DocuSign reported (the message's hash is the replay check's, not evidence: left out).
    table: providerEvents,
    columns: [
      providerEvents.id,
      providerEvents.provider,
      providerEvents.envelopeId,
      providerEvents.event,
      providerEvents.generatedAt,
      providerEvents.receivedAt,
    ],
    key: [providerEvents.id],
  },
  {
    table: downloadTokens,
    columns: [
      downloadTokens.id,
      downloadTokens.kind,
      downloadTokens.fileId,
      downloadTokens.emailId,
      downloadTokens.applicationId,
      downloadTokens.variant,
      downloadTokens.audience,
      downloadTokens.fileName,
      downloadTokens.userId,
      downloadTokens.sessionId,
      downloadTokens.expiresAt,
      downloadTokens.createdAt,
    ],
    key: [downloadTokens.id],
  },
  {
    table: postcodeAddresses,
    columns: [postcodeAddresses.id, postcodeAddresses.postcode, postcodeAddresses.lines, postcodeAddresses.createdAt],
    key: [postcodeAddresses.id],
  },
  {
    table: emails,
    columns: [
      emails.id,
      emails.toAddress,
      emails.subject,
      emails.userType,
      emails.applicationId,
      emails.createdAt,
      emails.sentAt,
      emails.attempts,
      emails.nextAttemptAt,
    ],
    key: [emails.id],
  },
  {
    table: loans,
    columns: [
      loans.id,
      loans.applicationId,
      loans.amountPence,
      loans.pendingAmountPence,
      loans.status,
      loans.createdAt,
      loans.updatedAt,
    ],
    key: [loans.id],
  },
  {
    table: drawdowns,
    columns: [
      drawdowns.id,
      drawdowns.loanId,
      drawdowns.status,
      drawdowns.amountPence,
      drawdowns.invoiceNumber,
      drawdowns.stageOfCase,
      drawdowns.materialChanges,
      drawdowns.materialChangesDetails,
      drawdowns.nextHearingDate,
      drawdowns.finalOrderDate,
      drawdowns.reaplyAssets,
      drawdowns.expectedRepaymentDate,
      drawdowns.clientExpectedRepaymentDate,
      drawdowns.lawyerDeclarations,
      drawdowns.clientDeclarations,
      // The client's signature: the provider's evidence of their approval.
      drawdowns.clientApprovedAt,
      drawdowns.clientApprovalAddress,
      drawdowns.clientApprovalDevice,
      drawdowns.requestedBy,
      drawdowns.createdAt,
      drawdowns.updatedAt,
    ],
    key: [drawdowns.id],
  },
  {
    table: auditEvents,
    columns: [
      auditEvents.id,
      auditEvents.actorUserId,
      auditEvents.at,
      auditEvents.entityType,
      auditEvents.entityId,
      auditEvents.action,
      auditEvents.fromState,
      auditEvents.toState,
    ],
    key: [auditEvents.id],
  },
];

/**
 * Tables of the schema the extract leaves out whole, with the reason. A table of schema.ts that is
 * in neither list fails a test (extract-tables.test.ts), so a new table gets a decision.
 */
export const excludedTables: Readonly<Record<string, string>> = {
  idempotency_keys: 'the stored answers of offline writes, kept to be replayed: they hold whatever an answer held',
  rate_limits:
    'short-lived counters of the rate limits (sign-in, reset requests, link calls, new applications, drawdown requests), keyed by account, link hash, record or network address',
  signing_certificates: "the provider's signing key (decision 284): whoever holds it can sign as the provider",
  stored_files: 'where the bytes of stored files are (decision 350); the extract carries no file contents',
  stored_file_chunks: 'the contents of uploaded and generated files (decision 350): never in the extract',
  record_totals: 'counts and sums of applications, loans and drawdowns kept by triggers (decision 373): the extract has the rows',
  push_vapid_keys:
    'the key pair the portal signs its pushes with (decision 675): whoever holds the private key can push as the portal',
  push_subscriptions:
    "each device's push endpoint and encryption keys: whoever holds them can send notifications to that person's phone",
  push_outbox:
    'the queue of notifications to send, and their delivery errors: what they say comes from the records in the extract',
  push_preferences:
    'the notification kinds a person turned off on their devices: a setting of the device side, not a record of the business',
};
