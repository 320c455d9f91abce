CREATE TABLE "plugins" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"plugin_type" integer NOT NULL,
	"tool_name" text NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"scenes" text DEFAULT '' NOT NULL,
	"points_cost" integer DEFAULT 0 NOT NULL,
	"online" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugins_tool_name_unique" UNIQUE("tool_name")
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "citations" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "tool_calls" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_media" ADD COLUMN "file_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_media" ADD COLUMN "mime_type" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_media" ADD COLUMN "byte_size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_media" ADD COLUMN "storage_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_media" ADD COLUMN "purpose" text DEFAULT 'chat' NOT NULL;