CREATE TABLE "prompt_submission_tags" (
	"submission_id" text NOT NULL,
	"tag_id" text NOT NULL,
	CONSTRAINT "prompt_submission_tags_submission_id_tag_id_pk" PRIMARY KEY("submission_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "prompt_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"user_quick_function_id" text,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"category" text DEFAULT 'scoped' NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"applies_to" jsonb DEFAULT '["input"]'::jsonb NOT NULL,
	"language" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_uses" (
	"prompt_id" text NOT NULL,
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompt_uses_prompt_id_user_id_day_pk" PRIMARY KEY("prompt_id","user_id","day")
);
--> statement-breakpoint
ALTER TABLE "prompt_submission_tags" ADD CONSTRAINT "prompt_submission_tags_submission_id_prompt_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."prompt_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_submission_tags" ADD CONSTRAINT "prompt_submission_tags_tag_id_prompt_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."prompt_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_submissions" ADD CONSTRAINT "prompt_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_submissions" ADD CONSTRAINT "prompt_submissions_user_quick_function_id_user_quick_functions_id_fk" FOREIGN KEY ("user_quick_function_id") REFERENCES "public"."user_quick_functions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_uses" ADD CONSTRAINT "prompt_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prompt_submission_tags_tag_idx" ON "prompt_submission_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_submissions_own_prompt_uq" ON "prompt_submissions" USING btree ("user_quick_function_id");--> statement-breakpoint
CREATE INDEX "prompt_submissions_user_idx" ON "prompt_submissions" USING btree ("user_id","state");--> statement-breakpoint
CREATE INDEX "prompt_submissions_state_idx" ON "prompt_submissions" USING btree ("state","language","published_at");--> statement-breakpoint
CREATE INDEX "prompt_uses_prompt_idx" ON "prompt_uses" USING btree ("prompt_id");