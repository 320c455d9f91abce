ALTER TABLE "chat_messages" ADD COLUMN "points_settled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_models" ADD COLUMN "input_points_per_1m" integer;--> statement-breakpoint
ALTER TABLE "ai_models" ADD COLUMN "output_points_per_1m" integer;