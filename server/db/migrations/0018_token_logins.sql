ALTER TABLE "auth_tokens" ADD COLUMN "login_id" text;--> statement-breakpoint
UPDATE "auth_tokens" SET "login_id" = "token_hash";--> statement-breakpoint
ALTER TABLE "auth_tokens" ALTER COLUMN "login_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "auth_tokens_login_idx" ON "auth_tokens" USING btree ("login_id");
