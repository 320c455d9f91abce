CREATE TABLE "stripe_invoice_outcomes" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"reversal" text,
	"reversed_at" timestamp with time zone,
	"dispute_id" text,
	"dispute_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "dispute_status" text;