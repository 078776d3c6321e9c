import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The whole schema. Money is held in pence (bigint) so sums never drift; ids are integers
 * (applications and loans show formatted numbers). Rows that people may "delete" carry
 * deleted_at, so history that names them stays readable.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const deletedAt = () => timestamp('deleted_at', { withTimezone: true });
const pence = (name: string) => bigint(name, { mode: 'number' });

export const firms = pgTable('firms', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: deletedAt(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-case; unique among accounts that are not deleted. */
    email: text('email').notNull(),
    /** argon2id; null until the invitation is accepted. */
    passwordHash: text('password_hash'),
    role: text('role').notNull(),
    firstName: text('first_name').notNull().default(''),
    surname: text('surname').notNull().default(''),
    /** The firm of a firm admin or a lawyer. */
    firmId: integer('firm_id').references(() => firms.id),
    /** invited → active; disabled accounts cannot sign in. */
    status: text('status').notNull().default('invited'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('users_email_live_key')
      .on(t.email)
      .where(sql`${t.deletedAt} is null`),
    index('users_firm_id_idx').on(t.firmId),
    check('users_role_check', sql`${t.role} in ('root', 'admin', 'firm', 'lawyer', 'customer')`),
    check('users_status_check', sql`${t.status} in ('invited', 'active', 'disabled')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** SHA-256 of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    // Housekeeping finds ended sessions by these.
    index('sessions_last_seen_at_idx').on(t.lastSeenAt),
    index('sessions_revoked_at_idx')
      .on(t.revokedAt)
      .where(sql`${t.revokedAt} is not null`),
  ],
);

/** Single-use links: invitations (sign-up) and password resets. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('user_tokens_user_id_idx').on(t.userId),
    // Housekeeping finds spent links by these.
    index('user_tokens_expires_at_idx').on(t.expiresAt),
    index('user_tokens_used_at_idx')
      .on(t.usedAt)
      .where(sql`${t.usedAt} is not null`),
    check('user_tokens_purpose_check', sql`${t.purpose} in ('invitation', 'reset')`),
  ],
);

/** Fixed-window counters shared by every server process (sign-in failures per account and address). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [index('rate_limits_window_started_at_idx').on(t.windowStartedAt)],
);

export const lawyers = pgTable(
  'lawyers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id),
    firmId: integer('firm_id')
      .notNull()
      .references(() => firms.id),
    createdAt: createdAt(),
    deletedAt: deletedAt(),
  },
  (t) => [index('lawyers_firm_id_idx').on(t.firmId)],
);

export const solicitors = pgTable(
  'solicitors',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Parts: postcode, address, house, street, city. */
    address: jsonb('address').notNull().$type<Record<string, string>>(),
    contactNumber: text('contact_number').notNull(),
    /** Unique (in any case) among solicitors that are not deleted. */
    email: text('email').notNull(),
    feePence: pence('fee_pence').notNull(),
    deliveryMethod: text('delivery_method').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('solicitors_email_live_key')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    birthDate: date('birth_date'),
    contactNumber: text('contact_number'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  // The case search (docs/decisions.md, 374): "contains" on the names through trigram indexes,
  // written at each insert (no pending list that every search would have to read).
  (t) => [
    index('clients_first_name_trgm_idx').using('gin', t.firstName.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('clients_last_name_trgm_idx').using('gin', t.lastName.op('gin_trgm_ops')).with({ fastupdate: false }),
    // A search word of one or two letters has no trigram: it matches the start of a name, read
    // from these (docs/decisions.md, 622).
    index('clients_first_name_prefix_idx').on(sql`lower(${t.firstName}) text_pattern_ops`),
    index('clients_last_name_prefix_idx').on(sql`lower(${t.lastName}) text_pattern_ops`),
  ],
);

export const applications = pgTable(
  'applications',
  {
    id: serial('id').primaryKey(),
    lawyerId: integer('lawyer_id')
      .notNull()
      .references(() => lawyers.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    status: text('status').notNull().default('incomplete'),
    caseRef: text('case_ref'),
    /**
     * The client's first and last names, lower-cased, as one text: a copy kept by the database
     * (a trigger at each insert and at each change of the client or the names), so the case
     * search reads one table's trigram indexes instead of the clients first (docs/decisions.md,
     * 721). Never written by the server.
     */
    clientNames: text('client_names').notNull().default(''),
    loanAmountPence: pence('loan_amount_pence'),
    kycAmlCheck: boolean('kyc_aml_check').notNull().default(false),
    credidCheck: boolean('credid_check').notNull().default(false),
    repaymentVehicle: boolean('repayment_vehicle').notNull().default(false),
    independentAdvice: boolean('independent_advice').notNull().default(false),
    envelopeId: text('envelope_id'),
    envelopeUrl: text('envelope_url'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the row entered its status, and the reminders of that wait (docs/decisions.md 693-694):
     * a trigger sets the time and clears the count in the statement that changes the status.
     */
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    remindersSent: integer('reminders_sent').notNull().default(0),
    lastReminderAt: timestamp('last_reminder_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('applications_lawyer_id_idx').on(t.lawyerId, t.startedAt),
    // The staff list: every application, newest first (read backwards).
    index('applications_started_at_idx').on(t.startedAt, t.id),
    index('applications_client_id_idx').on(t.clientId),
    index('applications_status_idx').on(t.status),
    index('applications_case_ref_trgm_idx').using('gin', t.caseRef.op('gin_trgm_ops')).with({ fastupdate: false }),
    // The case search by the client's names: "contains" and the start of a name (docs/decisions.md, 721).
    index('applications_client_names_trgm_idx').using('gin', t.clientNames.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

/** Journey data: one row per step, each with its own version for conflict detection. */
export const applicationSteps = pgTable(
  'application_steps',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id),
    step: text('step').notNull(),
    data: jsonb('data').notNull().$type<Record<string, unknown>>(),
    version: integer('version').notNull().default(1),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.applicationId, t.step] }),
    // A solicitor's active cases (docs/decisions.md, 132), looked up by the id the independent step names.
    index('application_steps_solicitor_idx')
      .on(sql`(${t.data}->>'solicitorId')`)
      .where(sql`${t.step} = 'independent'`),
  ],
);

export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id').references(() => applications.id),
    /** Storage key: `stored_files.key` in PostgreSQL, or the path below FILES_DIR (docs/decisions.md: 350). */
    key: text('key').notNull().unique(),
    name: text('name').notNull(),
    fileName: text('file_name').notNull(),
    type: text('type').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id),
    createdAt: createdAt(),
    deletedAt: deletedAt(),
  },
  (t) => [index('files_application_id_idx').on(t.applicationId)],
);

/**
 * The provider's review state of each document type of an application (POST
 * /applications/docs/state); a type without a row reads as received when it has files, else
 * pending.
 */
export const documentReviews = pgTable(
  'document_reviews',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id),
    type: text('type').notNull(),
    state: text('state').notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.applicationId, t.type] }),
    check('document_reviews_state_check', sql`${t.state} in ('pending', 'received', 'accepted', 'rejected')`),
  ],
);

/**
 * Short-lived download links (GET /files/{token}): the token's SHA-256 and what it grants, so any
 * server process on the database can answer it. A stored uploaded file, the application's PDF
 * (made when the link is fetched), a PDF of a stored email (made when fetched), or the staff's
 * database extract (no application).
 */
export const downloadTokens = pgTable(
  'download_tokens',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    kind: text('kind').notNull(),
    fileId: integer('file_id').references(() => files.id),
    /** emailPdf: the stored email the PDF is made of (when the link is fetched). */
    emailId: integer('email_id').references(() => emails.id),
    /** Every kind but the database extract names its application. */
    applicationId: integer('application_id').references(() => applications.id),
    /** applicationPdf: full or summary, and whose wording (lawyer or customer). */
    variant: text('variant'),
    audience: text('audience'),
    fileName: text('file_name').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The session that asked for the link: it works only while that session does (sign-out, password change). */
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('download_tokens_expires_at_idx').on(t.expiresAt),
    index('download_tokens_session_id_idx').on(t.sessionId),
    check('download_tokens_kind_check', sql`${t.kind} in ('file', 'applicationPdf', 'databaseExtract', 'emailPdf')`),
    check('download_tokens_application_check', sql`${t.kind} = 'databaseExtract' or ${t.applicationId} is not null`),
  ],
);

/** The built-in postcode provider's addresses (demo data; a real deployment uses Ideal Postcodes). */
export const postcodeAddresses = pgTable(
  'postcode_addresses',
  {
    id: serial('id').primaryKey(),
    /** Normalized: upper-case, letters and digits only (SW1A1AA). */
    postcode: text('postcode').notNull(),
    /** The address parts in order (building, street, locality, town); empty parts are left out when read. */
    lines: jsonb('lines').notNull().$type<string[]>(),
    createdAt: createdAt(),
  },
  (t) => [index('postcode_addresses_postcode_idx').on(t.postcode, t.id)],
);

/** The outbox: every email is written here first; a sender delivers it when SMTP is configured. */
export const emails = pgTable(
  'emails',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** Who the email is for: admin, lawyer, customer, firm. */
    userType: text('user_type').notNull(),
    applicationId: integer('application_id').references(() => applications.id),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** A sender claims a row by moving this forward, so two processes never send it twice. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('emails_application_id_idx').on(t.applicationId),
    index('emails_unsent_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

export const loans = pgTable(
  'loans',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .unique()
      .references(() => applications.id),
    /**
     * The signed facility: the credit the client has signed for (the Credit Agreement, then each
     * signed variation), the credit offered that drawdowns count against and the totals sum
     * (docs/decisions.md, 505).
     */
    amountPence: pence('amount_pence').notNull(),
    /**
     * A facility staff set above the signed one, waiting for the client to sign its variation;
     * null when none waits. Not drawable until signed (docs/decisions.md, 506).
     */
    pendingAmountPence: pence('pending_amount_pence'),
    status: text('status').notNull().default('open'),
    /**
     * The application's lawyer, kept by the database (migration 0015, docs/decisions.md, 621): a
     * trigger sets it at insert and follows the application's lawyer when that changes, so a
     * lawyer's (or firm's) loans are read by `loans_lawyer_id_idx` alone. Never written by the
     * server: an insert sends DEFAULT and the trigger fills it.
     */
    lawyerId: integer('lawyer_id')
      .notNull()
      .$defaultFn(() => sql`default`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A lawyer's loans, newest first (their list and its total).
    index('loans_lawyer_id_idx').on(t.lawyerId, t.id),
    check('loans_status_check', sql`${t.status} in ('open', 'blocked', 'paid', 'closed')`),
    check('loans_pending_amount_check', sql`${t.pendingAmountPence} is null or ${t.pendingAmountPence} > ${t.amountPence}`),
  ],
);

export const drawdowns = pgTable(
  'drawdowns',
  {
    id: serial('id').primaryKey(),
    loanId: integer('loan_id')
      .notNull()
      .references(() => loans.id),
    status: text('status').notNull().default('requested'),
    amountPence: pence('amount_pence').notNull(),
    invoiceNumber: text('invoice_number').notNull(),
    stageOfCase: text('stage_of_case').notNull(),
    materialChanges: boolean('material_changes').notNull(),
    materialChangesDetails: text('material_changes_details'),
    nextHearingDate: text('next_hearing_date').notNull(),
    finalOrderDate: text('final_order_date').notNull(),
    reaplyAssets: text('reaply_assets').notNull(),
    expectedRepaymentDate: text('expected_repayment_date').notNull(),
    clientExpectedRepaymentDate: text('client_expected_repayment_date'),
    lawyerDeclarations: jsonb('lawyer_declarations').notNull().$type<Record<string, unknown>>(),
    clientDeclarations: jsonb('client_declarations').$type<Record<string, boolean>>(),
    /** The client's approval is their signature: when, from which address, on which device. */
    clientApprovedAt: timestamp('client_approved_at', { withTimezone: true }),
    clientApprovalAddress: text('client_approval_address'),
    clientApprovalDevice: text('client_approval_device'),
    requestedBy: integer('requested_by').references(() => users.id),
    /** Its loan's lawyer, kept by the database as `loans.lawyer_id` is (docs/decisions.md, 621). */
    lawyerId: integer('lawyer_id')
      .notNull()
      .$defaultFn(() => sql`default`),
    /**
     * When the row entered its status, and the reminders of that wait (docs/decisions.md 693-694):
     * a trigger sets the time and clears the count in the statement that changes the status.
     */
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    remindersSent: integer('reminders_sent').notNull().default(0),
    lastReminderAt: timestamp('last_reminder_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('drawdowns_loan_id_idx').on(t.loanId, t.createdAt),
    // A lawyer's drawdowns, newest first (their list and its total).
    index('drawdowns_lawyer_id_idx').on(t.lawyerId, t.id),
    // Newest first within a status: a status-filtered page (staff's queue) reads only its own rows (docs/decisions.md (422)).
    index('drawdowns_status_id_idx').on(t.status, t.id),
  ],
);

/** Every state change anywhere: who, when, what, from, to. */
/**
 * How many applications, loans and drawdowns there are in each status, and their amounts, kept
 * by triggers in the same transaction as every insert, status or amount change and delete of those
 * rows (docs/decisions.md, 373; migration 0010): staff's unfiltered totals and overviews read a few rows here
 * instead of counting and summing every record. Exact, and shared by every server process.
 */
export const recordTotals = pgTable(
  'record_totals',
  {
    /** 'application', 'loan' or 'drawdown'. */
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    /** Loans: the credit offered; drawdowns: the amounts asked; applications: 0. */
    amountPence: pence('amount_pence').notNull().default(0),
    /**
     * The newest `created_at` of the rows that have been in this status (a row moving on does not
     * lower it): over every status, the newest of the kind (loans: the latest signing).
     */
    latestAt: timestamp('latest_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.status] })],
);

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorUserId: integer('actor_user_id').references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    action: text('action').notNull(),
    fromState: jsonb('from_state'),
    toState: jsonb('to_state'),
  },
  (t) => [index('audit_events_entity_idx').on(t.entityType, t.entityId, t.at)],
);

/** Replays of an offline write answer with the first result instead of doing it twice. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

/**
 * Signature envelopes (docs/decisions.md: 283): one per preparation of an application's contract
 * documents; preparing again voids the earlier one. The built-in provider keeps its signing link and
 * one-time code here, only as SHA-256 hashes; a DocuSign envelope's id is DocuSign's envelopeId, and
 * it may end `declined` at DocuSign (docs/decisions.md 520-534).
 */
export const envelopes = pgTable(
  'envelopes',
  {
    /** The envelope id shown to people and printed on the certificate page (a UUID). */
    id: text('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id),
    provider: text('provider').notNull(),
    status: text('status').notNull().default('created'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    /** The signing page's link: one at a time; asking again replaces it. */
    linkTokenHash: text('link_token_hash').unique(),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    linkOpenedAt: timestamp('link_opened_at', { withTimezone: true }),
    linkCodesSent: integer('link_codes_sent').notNull().default(0),
    /** The emailed one-time code: its hash, expiry and wrong attempts. */
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeAttempts: integer('code_attempts').notNull().default(0),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signerUserId: integer('signer_user_id').references(() => users.id),
    signerAddress: text('signer_address'),
    signerDevice: text('signer_device'),
    /**
     * 'contract': the application's contract set, whose signing creates the loan; 'variation': a new
     * Credit Agreement for a raised facility of `loanId`, whose signing makes `amountPence` the
     * loan's signed facility (docs/decisions.md, 507).
     */
    kind: text('kind').notNull().default('contract'),
    loanId: integer('loan_id').references(() => loans.id),
    /** The facility a variation's agreement states. */
    amountPence: pence('amount_pence'),
    /** A remote provider's signer as it was sent (name, email, clientUserId): the signing view must name them the same. */
    remoteSigner: jsonb('remote_signer'),
    /** DocuSign's certificate of completion of a signed envelope, kept beside the signed copies. */
    completionCertificateFileId: integer('completion_certificate_file_id').references(() => files.id),
  },
  (t) => [
    index('envelopes_application_id_idx').on(t.applicationId, t.createdAt),
    check('envelopes_status_check', sql`${t.status} in ('created', 'notified', 'signed', 'voided', 'declined')`),
    check('envelopes_kind_check', sql`${t.kind} in ('contract', 'variation')`),
    check('envelopes_variation_check', sql`${t.kind} = 'contract' or (${t.loanId} is not null and ${t.amountPence} is not null)`),
    // At most one variation of a loan may be signed at a time: a new one voids the last (decision 508).
    uniqueIndex('envelopes_open_variation_key')
      .on(t.loanId)
      .where(sql`${t.kind} = 'variation' and ${t.status} in ('created', 'notified')`),
  ],
);

/** The documents of an envelope: the original as prepared (and its SHA-256), then its signed copy. */
export const envelopeDocuments = pgTable(
  'envelope_documents',
  {
    id: serial('id').primaryKey(),
    envelopeId: text('envelope_id')
      .notNull()
      .references(() => envelopes.id),
    position: integer('position').notNull(),
    type: text('type').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
    sha256: text('sha256').notNull(),
    signedFileId: integer('signed_file_id').references(() => files.id),
    signedSha256: text('signed_sha256'),
    /** The PAdES baseline level the signed copy reached: B-B, B-T or B-LT (docs/decisions.md 475-479). */
    padesLevel: text('pades_level'),
    /** A document time-stamp is owed: when to ask the authority next, and how often it was asked. */
    timestampDueAt: timestamp('timestamp_due_at', { withTimezone: true }),
    timestampAttempts: integer('timestamp_attempts').notNull().default(0),
  },
  (t) => [
    uniqueIndex('envelope_documents_position_key').on(t.envelopeId, t.position),
    index('envelope_documents_timestamp_due_idx')
      .on(t.timestampDueAt)
      .where(sql`${t.timestampDueAt} is not null`),
    check('envelope_documents_pades_level_check', sql`${t.padesLevel} in ('B-B', 'B-T', 'B-LT')`),
  ],
);

/**
 * What happened to an envelope, in order: created, notified, opened, codeSent, codeFailed, signed,
 * voided, declined (by the signer at DocuSign), and timestamped (a signed copy given its document
 * time-stamp later: docs/decisions.md 479).
 */
export const envelopeEvents = pgTable(
  'envelope_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    envelopeId: text('envelope_id')
      .notNull()
      .references(() => envelopes.id),
    type: text('type').notNull(),
    userId: integer('user_id').references(() => users.id),
    address: text('address'),
    device: text('device'),
    detail: jsonb('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('envelope_events_envelope_id_idx').on(t.envelopeId, t.id),
    check(
      'envelope_events_type_check',
      sql`${t.type} in ('created', 'notified', 'opened', 'codeSent', 'codeFailed', 'signed', 'voided', 'declined', 'timestamped')`,
    ),
  ],
);

/**
 * The events a remote provider reported that changed something (DocuSign Connect: docs/decisions.md
 * 527): one row per envelope, event and the time the provider generated it, written in the
 * transaction of the change, so a replay (Connect's retries, or the same message again) is found
 * and changes nothing, while an event whose handling failed is handled when it comes again.
 */
export const providerEvents = pgTable(
  'provider_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    envelopeId: text('envelope_id')
      .notNull()
      .references(() => envelopes.id),
    event: text('event').notNull(),
    /** The event's own time as the provider wrote it (Connect's generatedDateTime), compared as written. */
    generatedAt: text('generated_at').notNull(),
    /** The SHA-256 of the message as first received (its signature checked). */
    bodySha256: text('body_sha256').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_events_key').on(t.provider, t.envelopeId, t.event, t.generatedAt)],
);

/**
 * The built-in provider's signing certificate when none is configured (docs/decisions.md: 284):
 * made once, kept here so every server process on the database signs with the same one.
 */
export const signingCertificates = pgTable('signing_certificates', {
  id: integer('id').primaryKey(),
  /** PKCS#12, base64. */
  p12: text('p12').notNull(),
  createdAt: createdAt(),
});

/** Binary column: node-postgres reads a Buffer, PGlite a Uint8Array; both are handed on as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The bytes of uploaded and generated files when they are kept in PostgreSQL (FILES_STORAGE=postgres,
 * the default with DATABASE_URL; docs/decisions.md: 350), so every server process on every machine
 * reads them. One row per write: `complete` is false while the bytes arrive (a partial write, which
 * housekeeping removes when its process died) and turns true, in one transaction with the removal
 * of an earlier write under the same key, when the last byte is in. `files.key` names `key`.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    complete: boolean('complete').notNull().default(false),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    /** The last write of a chunk, or the completion (housekeeping's age). */
    writtenAt: timestamp('written_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('stored_files_key_idx')
      .on(t.key)
      .where(sql`${t.complete}`),
  ],
);

/** A stored file's bytes in chunks of at most 512 KB, read and written one chunk at a time. */
export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    storedFileId: bigint('stored_file_id', { mode: 'number' })
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    chunkNo: integer('chunk_no').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.storedFileId, t.chunkNo] })],
);

/**
 * A device that receives web push: the browser's subscription (its push service's endpoint and
 * the keys its messages are encrypted to), tied to the user and to the session it was made in.
 * Signing out removes the session's subscriptions; a session purged later takes them too.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    sessionId: integer('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and 16-byte auth secret, base64url. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    deviceLabel: text('device_label').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_id_idx').on(t.userId), index('push_subscriptions_session_id_idx').on(t.sessionId)],
);

/**
 * The kinds a person turned off (a row only once they choose). Kept as the ones off, so that a
 * kind added later is on for everyone until they turn it off.
 */
export const pushPreferences = pgTable('push_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  kindsOff: text('kinds_off').array().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The push outbox: one row per device and notification, written in the transaction of the change
 * that causes it, and claimed by the sender as the mail outbox is (SKIP LOCKED, a moved
 * next_attempt_at), so it goes after the commit, with backoff, and never twice.
 */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    /** The message as the service worker reads it (JSON: title, body, link, kind, userId). */
    payload: text('payload').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('push_outbox_subscription_id_idx').on(t.subscriptionId),
    index('push_outbox_unsent_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

/**
 * The VAPID key pair made at the first start when the configuration gives none: one row, the
 * first process to start writes it and every other reads it. Only the public key is ever served.
 */
export const pushVapidKeys = pgTable(
  'push_vapid_keys',
  {
    id: integer('id').primaryKey(),
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('push_vapid_keys_one_row', sql`${t.id} = 1`)],
);
