ALTER TABLE "point_ledger" ADD COLUMN "allowance" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD COLUMN "balance_after" integer;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Entries written before the ledger had keys: each is its own event.
UPDATE "point_ledger" SET "idempotency_key" = 'legacy:' || "id";--> statement-breakpoint
-- Kinds as the ledger names them.
UPDATE "point_ledger" SET "reason" = 'message' WHERE "reason" = 'chat';--> statement-breakpoint
UPDATE "point_ledger" SET "reason" = 'refund' WHERE "reason" LIKE '%-refund';--> statement-breakpoint
-- Earlier charges recorded the whole cost, allowance included, so the entries may not sum to the
-- balance: one opening entry per account carries the difference, and from here on they agree.
INSERT INTO "point_ledger" ("id", "user_id", "delta", "reason", "idempotency_key", "note", "balance_after")
SELECT gen_random_uuid()::text, b."user_id", b."balance" - coalesce(s."total", 0), 'opening', 'opening:' || b."user_id",
       'balance carried over when the ledger was introduced', b."balance"
FROM "point_balances" b
LEFT JOIN (SELECT "user_id", sum("delta") AS "total" FROM "point_ledger" GROUP BY "user_id") s ON s."user_id" = b."user_id"
WHERE b."balance" <> coalesce(s."total", 0);--> statement-breakpoint
ALTER TABLE "point_ledger" ALTER COLUMN "idempotency_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD CONSTRAINT "point_ledger_idempotency_key_unique" UNIQUE("idempotency_key");
