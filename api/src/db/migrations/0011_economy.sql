CREATE TABLE "gold_gifts" (
	"from_user_id" uuid NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"to_user_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"outcome" text NOT NULL,
	"gold_after" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gold_gifts_from_user_id_idempotency_key_pk" PRIMARY KEY("from_user_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "mission_events" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"xp" integer NOT NULL,
	"gold" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mission_events_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "owned_items" (
	"user_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owned_items_user_id_item_id_pk" PRIMARY KEY("user_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"user_id" uuid NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"item_id" text NOT NULL,
	"outcome" text NOT NULL,
	"gold_after" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchases_user_id_idempotency_key_pk" PRIMARY KEY("user_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "quest_catalogue" (
	"id" text PRIMARY KEY NOT NULL,
	"cadence" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"target" integer NOT NULL,
	"xp" integer NOT NULL,
	"gold" integer NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_items" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"price" integer NOT NULL,
	"description" text NOT NULL,
	"image_url" text NOT NULL,
	"emoji" text[] DEFAULT '{}'::text[] NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "store_items_price_positive" CHECK ("store_items"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "user_quests" (
	"user_id" uuid NOT NULL,
	"period" text NOT NULL,
	"quest_id" text NOT NULL,
	"kind" text NOT NULL,
	"target" integer NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	CONSTRAINT "user_quests_user_id_period_quest_id_pk" PRIMARY KEY("user_id","period","quest_id")
);
--> statement-breakpoint
CREATE TABLE "visit_days" (
	"user_id" uuid NOT NULL,
	"day" text NOT NULL,
	"frozen" boolean DEFAULT false NOT NULL,
	CONSTRAINT "visit_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"xp" integer DEFAULT 0 NOT NULL,
	"gold" integer DEFAULT 0 NOT NULL,
	"level" integer DEFAULT 1 NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"streak_days" integer DEFAULT 0 NOT NULL,
	"last_visit" text,
	"freezes" integer DEFAULT 0 NOT NULL,
	"streak_reminders" boolean DEFAULT true NOT NULL,
	"quiet_from" integer DEFAULT 22 NOT NULL,
	"quiet_to" integer DEFAULT 8 NOT NULL,
	"last_reminder" text,
	CONSTRAINT "wallets_gold_not_negative" CHECK ("wallets"."gold" >= 0),
	CONSTRAINT "wallets_xp_not_negative" CHECK ("wallets"."xp" >= 0)
);
--> statement-breakpoint
ALTER TABLE "gold_gifts" ADD CONSTRAINT "gold_gifts_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gold_gifts" ADD CONSTRAINT "gold_gifts_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_events" ADD CONSTRAINT "mission_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_items" ADD CONSTRAINT "owned_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_items" ADD CONSTRAINT "owned_items_item_id_store_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."store_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_quests" ADD CONSTRAINT "user_quests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_quests" ADD CONSTRAINT "user_quests_quest_id_quest_catalogue_id_fk" FOREIGN KEY ("quest_id") REFERENCES "public"."quest_catalogue"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_days" ADD CONSTRAINT "visit_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gold_gifts_to_idx" ON "gold_gifts" USING btree ("to_user_id");--> statement-breakpoint
CREATE INDEX "mission_events_user_created_idx" ON "mission_events" USING btree ("user_id","created_at");