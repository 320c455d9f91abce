CREATE TABLE "responses_files" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"ai_model_id" text NOT NULL,
	"deployment_id" text NOT NULL,
	"upstream_file_id" text NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"mime_type" text DEFAULT '' NOT NULL,
	"byte_size" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "params" jsonb;--> statement-breakpoint
ALTER TABLE "ai_deployments" ADD COLUMN "protocol" text DEFAULT 'chat' NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_models" ADD COLUMN "param_bounds" jsonb;--> statement-breakpoint
ALTER TABLE "responses_files" ADD CONSTRAINT "responses_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses_files" ADD CONSTRAINT "responses_files_deployment_id_ai_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."ai_deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "responses_files_user_idx" ON "responses_files" USING btree ("user_id","created_at");