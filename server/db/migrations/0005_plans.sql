CREATE TABLE "stripe_customers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_customers_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"event_created" bigint NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"customer_id" text,
	"package_id" text NOT NULL,
	"status" text NOT NULL,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"state_at" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vip_packages" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"level" integer NOT NULL,
	"period" text NOT NULL,
	"prices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stripe_price_ids" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"monthly_points" integer DEFAULT 0 NOT NULL,
	"best_deal" boolean DEFAULT false NOT NULL,
	"online" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "source" text DEFAULT 'grant' NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "package_id" text;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "period" text;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "amount" integer;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "stripe_invoice_id" text;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "points_granted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "points_taken" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "points_settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stripe_customers" ADD CONSTRAINT "stripe_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_subscriptions" ADD CONSTRAINT "stripe_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stripe_subscriptions_user_idx" ON "stripe_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "vip_orders_user_created_idx" ON "vip_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "vip_orders_points_open_idx" ON "vip_orders" USING btree ("end_time") WHERE "vip_orders"."points_settled_at" is null and "vip_orders"."points_granted" > 0;--> statement-breakpoint
ALTER TABLE "vip_orders" ADD CONSTRAINT "vip_orders_stripe_invoice_id_unique" UNIQUE("stripe_invoice_id");--> statement-breakpoint
ALTER TABLE "vip_orders" ADD CONSTRAINT "vip_orders_request_id_unique" UNIQUE("request_id");