ALTER TABLE "users" ADD COLUMN "head_img" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_head_img_uq" ON "users" USING btree ("head_img") WHERE "users"."head_img" is not null;