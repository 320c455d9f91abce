CREATE TABLE "prompt_tags" (
	"id" text PRIMARY KEY NOT NULL,
	"name_en" text NOT NULL,
	"name_zh" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommended_prompt_tags" (
	"prompt_id" text NOT NULL,
	"tag_id" text NOT NULL,
	CONSTRAINT "recommended_prompt_tags_prompt_id_tag_id_pk" PRIMARY KEY("prompt_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "user_quick_function_tags" (
	"user_quick_function_id" text NOT NULL,
	"tag_id" text NOT NULL,
	CONSTRAINT "user_quick_function_tags_user_quick_function_id_tag_id_pk" PRIMARY KEY("user_quick_function_id","tag_id")
);
--> statement-breakpoint
ALTER TABLE "recommended_prompt_tags" ADD CONSTRAINT "recommended_prompt_tags_prompt_id_recommended_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."recommended_prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommended_prompt_tags" ADD CONSTRAINT "recommended_prompt_tags_tag_id_prompt_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."prompt_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_quick_function_tags" ADD CONSTRAINT "user_quick_function_tags_user_quick_function_id_user_quick_functions_id_fk" FOREIGN KEY ("user_quick_function_id") REFERENCES "public"."user_quick_functions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_quick_function_tags" ADD CONSTRAINT "user_quick_function_tags_tag_id_prompt_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."prompt_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_tags_name_en_uq" ON "prompt_tags" USING btree (lower("name_en"));--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_tags_name_zh_uq" ON "prompt_tags" USING btree (lower("name_zh"));--> statement-breakpoint
CREATE INDEX "recommended_prompt_tags_tag_idx" ON "recommended_prompt_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "user_quick_function_tags_tag_idx" ON "user_quick_function_tags" USING btree ("tag_id");