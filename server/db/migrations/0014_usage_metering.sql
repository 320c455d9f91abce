CREATE TABLE "admin_audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_by" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "active_users_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "active_users_hourly_hour_user_id_pk" PRIMARY KEY("hour","user_id")
);
--> statement-breakpoint
CREATE TABLE "points_hourly" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"spent" bigint NOT NULL,
	"granted" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"watermark" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upstream_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" text NOT NULL,
	"ai_model_id" text NOT NULL,
	"message_id" text,
	"error" text NOT NULL,
	"failed_over" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"ai_model_id" text NOT NULL,
	"deployment_id" text NOT NULL,
	"messages" integer NOT NULL,
	"estimated_messages" integer NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"first_token_ms_sum" bigint NOT NULL,
	"first_token_count" integer NOT NULL,
	CONSTRAINT "usage_hourly_hour_ai_model_id_deployment_id_pk" PRIMARY KEY("hour","ai_model_id","deployment_id")
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "deployment_id" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "input_tokens" integer;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "output_tokens" integer;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "tokens_estimated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "first_token_ms" integer;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_idx" ON "admin_audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_audit_log_target_idx" ON "admin_audit_log" USING btree ("target_type","target_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_audit_log_actor_idx" ON "admin_audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" USING btree ("user_id") WHERE "password_resets"."used_at" is null;--> statement-breakpoint
CREATE INDEX "upstream_failures_created_idx" ON "upstream_failures" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "chat_messages_finished_idx" ON "chat_messages" USING btree ("finished_at") WHERE "chat_messages"."finished_at" is not null;--> statement-breakpoint
CREATE INDEX "point_ledger_created_idx" ON "point_ledger" USING btree ("created_at");