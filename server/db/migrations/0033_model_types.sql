CREATE TABLE "ai_model_type_links" (
	"ai_model_id" text NOT NULL,
	"type_id" text NOT NULL,
	CONSTRAINT "ai_model_type_links_ai_model_id_type_id_pk" PRIMARY KEY("ai_model_id","type_id")
);
--> statement-breakpoint
CREATE TABLE "ai_model_types" (
	"id" text PRIMARY KEY NOT NULL,
	"name_en" text NOT NULL,
	"name_zh" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_model_type_links" ADD CONSTRAINT "ai_model_type_links_ai_model_id_ai_models_id_fk" FOREIGN KEY ("ai_model_id") REFERENCES "public"."ai_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_type_links" ADD CONSTRAINT "ai_model_type_links_type_id_ai_model_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."ai_model_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_model_type_links_type_idx" ON "ai_model_type_links" USING btree ("type_id");--> statement-breakpoint
-- The built-in types (the server's checks use chat, vision and image by these ids).
INSERT INTO "ai_model_types" ("id", "name_en", "name_zh", "sort") VALUES
	('chat', 'Chat', '对话', 10),
	('vision', 'Vision', '识图', 20),
	('image', 'Image generation', '图像生成', 30),
	('embedding', 'Embedding', '向量嵌入', 40),
	('translation', 'Translation', '翻译', 50)
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
-- Every existing model answered chat messages: it is a chat model, unless its id names an image
-- generator (nothing drew through the catalogue before: drawing used IMAGES_*).
INSERT INTO "ai_model_type_links" ("ai_model_id", "type_id")
	SELECT "id", CASE WHEN "id" ~ '(^|[-_./])(dall-e|gpt-image|stable-diffusion|sdxl|flux|imagen|midjourney)' THEN 'image' ELSE 'chat' END
	FROM "ai_models"
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- "Reads images" was a column; it is now the vision type.
INSERT INTO "ai_model_type_links" ("ai_model_id", "type_id")
	SELECT "id", 'vision' FROM "ai_models" WHERE "is_image"
ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "ai_models" DROP COLUMN "is_image";