ALTER TABLE "users" ADD COLUMN "google_email" text;
