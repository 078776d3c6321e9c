CREATE TABLE "stored_file_chunks" (
	"stored_file_id" bigint NOT NULL,
	"chunk_no" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "stored_file_chunks_stored_file_id_chunk_no_pk" PRIMARY KEY("stored_file_id","chunk_no")
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stored_file_chunks" ADD CONSTRAINT "stored_file_chunks_stored_file_id_stored_files_id_fk" FOREIGN KEY ("stored_file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stored_files_key_idx" ON "stored_files" USING btree ("key") WHERE "stored_files"."complete";--> statement-breakpoint
-- PDFs are compressed already: TOAST keeps the chunks out of line without trying to compress them again.
ALTER TABLE "stored_file_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
