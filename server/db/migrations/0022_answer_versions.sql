DROP INDEX "chat_messages_answering_idx";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "parent_id" text;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "current_leaf_id" text;--> statement-breakpoint
CREATE INDEX "chat_messages_session_parent_idx" ON "chat_messages" USING btree ("session_id","parent_id","created_at");