CREATE TABLE "client_errors" (
	"id" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"message" text NOT NULL,
	"top_frame" text,
	"stack" text,
	"surfaces" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"versions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"browsers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_path" text,
	"count" integer DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "translation_overrides" (
	"language" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translation_overrides_language_key_pk" PRIMARY KEY("language","key")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "client_errors_fingerprint_uq" ON "client_errors" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "client_errors_last_seen_idx" ON "client_errors" USING btree ("last_seen_at");