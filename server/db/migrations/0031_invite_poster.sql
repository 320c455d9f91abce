CREATE TABLE "poster_renders" (
	"user_id" text NOT NULL,
	"language" text NOT NULL,
	"version" text NOT NULL,
	"file_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "poster_renders_user_id_language_pk" PRIMARY KEY("user_id","language")
);
--> statement-breakpoint
CREATE TABLE "poster_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"headline_en" text DEFAULT '' NOT NULL,
	"headline_zh" text DEFAULT '' NOT NULL,
	"subtext_en" text DEFAULT '' NOT NULL,
	"subtext_zh" text DEFAULT '' NOT NULL,
	"accent_color" text NOT NULL,
	"picture_id" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "poster_settings_one_row" CHECK ("poster_settings"."id" = 'poster')
);
--> statement-breakpoint
ALTER TABLE "poster_renders" ADD CONSTRAINT "poster_renders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;