CREATE TABLE "campaign_claims" (
	"campaign_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reward_type" text NOT NULL,
	"points" integer,
	"coupon_code" text,
	CONSTRAINT "campaign_claims_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_dismissals" (
	"campaign_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_dismissals_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_views" (
	"campaign_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_views_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"title_en" text NOT NULL,
	"title_zh" text NOT NULL,
	"body_en" text DEFAULT '' NOT NULL,
	"body_zh" text DEFAULT '' NOT NULL,
	"image_url" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"plan_levels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"language" text DEFAULT 'all' NOT NULL,
	"new_user_days" integer,
	"reward_type" text DEFAULT 'none' NOT NULL,
	"reward_points" integer,
	"reward_coupon_id" text,
	"max_claims" integer,
	"claim_count" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_window" CHECK ("campaigns"."ends_at" > "campaigns"."starts_at"),
	CONSTRAINT "campaigns_claim_limit" CHECK ("campaigns"."claim_count" >= 0 and ("campaigns"."max_claims" is null or "campaigns"."claim_count" <= "campaigns"."max_claims")),
	CONSTRAINT "campaigns_reward" CHECK (("campaigns"."reward_type" = 'none' and "campaigns"."reward_points" is null and "campaigns"."reward_coupon_id" is null)
        or ("campaigns"."reward_type" = 'points' and "campaigns"."reward_points" > 0 and "campaigns"."reward_coupon_id" is null)
        or ("campaigns"."reward_type" = 'coupon' and "campaigns"."reward_points" is null and "campaigns"."reward_coupon_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invite_code_disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_claims" ADD CONSTRAINT "campaign_claims_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_claims" ADD CONSTRAINT "campaign_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_dismissals" ADD CONSTRAINT "campaign_dismissals_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_dismissals" ADD CONSTRAINT "campaign_dismissals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_views" ADD CONSTRAINT "campaign_views_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_views" ADD CONSTRAINT "campaign_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_reward_coupon_id_coupons_id_fk" FOREIGN KEY ("reward_coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_claims_created_idx" ON "campaign_claims" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_window_idx" ON "campaigns" USING btree ("starts_at","ends_at");