CREATE TABLE "hidden_topics" (
	"topic" text PRIMARY KEY NOT NULL,
	"hidden_by" uuid,
	"hidden_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "real_chats" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "age_gate_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hidden_topics" ADD CONSTRAINT "hidden_topics_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refresh_tokens_revoked_at_idx" ON "refresh_tokens" USING btree ("revoked_at") WHERE "refresh_tokens"."revoked_at" is not null;--> statement-breakpoint
CREATE INDEX "users_banned_at_idx" ON "users" USING btree ("banned_at") WHERE "users"."banned_at" is not null;