ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
CREATE INDEX "browser_records_driver_user_idx" ON "browser_records" USING btree ("driver_id","user_id");--> statement-breakpoint
CREATE INDEX "request_times_driver_user_idx" ON "request_times" USING btree ("driver_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_uq" ON "users" USING btree ("phone") WHERE "users"."phone" is not null;