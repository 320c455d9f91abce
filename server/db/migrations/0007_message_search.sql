CREATE TABLE "favourites" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"ai_model_id" text,
	"model_name" text,
	"answered_at" timestamp with time zone NOT NULL,
	"source_session_id" text,
	"source_message_id" text,
	"edited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"reasons" jsonb NOT NULL,
	"other_text" text DEFAULT '' NOT NULL,
	"browser" text NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"language" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "favourites_user_created_idx" ON "favourites" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "favourites_user_source_uq" ON "favourites" USING btree ("user_id","source_message_id");--> statement-breakpoint
CREATE INDEX "feedbacks_created_idx" ON "feedbacks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "chat_messages_input_trgm_idx" ON "chat_messages" USING gin (lower("input_message") gin_trgm_ops) WHERE "chat_messages"."finish_reason" is not null;--> statement-breakpoint
CREATE INDEX "chat_messages_output_trgm_idx" ON "chat_messages" USING gin (lower("output_message") gin_trgm_ops) WHERE "chat_messages"."finish_reason" is not null;