ALTER TABLE "envelopes" ADD COLUMN "kind" text DEFAULT 'contract' NOT NULL;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "loan_id" integer;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "amount_pence" bigint;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "pending_amount_pence" bigint;--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "envelopes_open_variation_key" ON "envelopes" USING btree ("loan_id") WHERE "envelopes"."kind" = 'variation' and "envelopes"."status" in ('created', 'notified');--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_kind_check" CHECK ("envelopes"."kind" in ('contract', 'variation'));--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_variation_check" CHECK ("envelopes"."kind" = 'contract' or ("envelopes"."loan_id" is not null and "envelopes"."amount_pence" is not null));--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_pending_amount_check" CHECK ("loans"."pending_amount_pence" is null or "loans"."pending_amount_pence" > "loans"."amount_pence");--> statement-breakpoint
-- Loans whose credit was raised before this migration took no new signature: what the client signed
-- is the amount the loan was created with, lowered by any later change below it (the least of the
-- two). A loan above that keeps its figure as a pending variation while it may still be drawn on
-- (open or blocked); a paid or closed one is restated to the signed figure. Audited as
-- 'facilityRestated' by nobody (docs/decisions.md, 512); the record_totals triggers follow the update.
WITH facility AS (
  SELECT l.id, l.amount_pence AS current_pence,
    least(
      coalesce((SELECT (a.to_state->>'amountPence')::bigint FROM audit_events a
        WHERE a.entity_type = 'loan' AND a.entity_id = l.id::text AND a.action = 'created'
          AND jsonb_typeof(a.to_state->'amountPence') = 'number' ORDER BY a.id LIMIT 1), l.amount_pence),
      coalesce((SELECT min((a.to_state->>'amountPence')::bigint) FROM audit_events a
        WHERE a.entity_type = 'loan' AND a.entity_id = l.id::text AND a.action = 'amountChanged'
          AND jsonb_typeof(a.to_state->'amountPence') = 'number'), l.amount_pence)
    ) AS signed_pence
  FROM loans l
), restated AS (
  UPDATE loans l
    SET amount_pence = f.signed_pence,
        pending_amount_pence = CASE WHEN l.status IN ('open', 'blocked') THEN f.current_pence END,
        updated_at = now()
    FROM facility f
    WHERE f.id = l.id AND f.signed_pence < f.current_pence
    RETURNING l.id, f.current_pence, f.signed_pence, l.pending_amount_pence
)
INSERT INTO audit_events (actor_user_id, entity_type, entity_id, action, from_state, to_state)
  SELECT NULL, 'loan', r.id::text, 'facilityRestated',
    jsonb_build_object('amountPence', r.current_pence, 'pendingAmountPence', NULL),
    jsonb_build_object('amountPence', r.signed_pence, 'pendingAmountPence', r.pending_amount_pence)
  FROM restated r;
