-- The text search configuration of a room's language (ISO 639-1), or 'simple' (no stemming) when
-- the room has none or the server has no configuration for it.
CREATE FUNCTION room_search_config(language text) RETURNS regconfig LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT c.oid::regconfig FROM pg_ts_config c WHERE c.cfgname = CASE language
    WHEN 'ar' THEN 'arabic' WHEN 'hy' THEN 'armenian' WHEN 'eu' THEN 'basque' WHEN 'ca' THEN 'catalan'
    WHEN 'da' THEN 'danish' WHEN 'nl' THEN 'dutch' WHEN 'en' THEN 'english' WHEN 'et' THEN 'estonian'
    WHEN 'fi' THEN 'finnish' WHEN 'fr' THEN 'french' WHEN 'de' THEN 'german' WHEN 'el' THEN 'greek'
    WHEN 'hi' THEN 'hindi' WHEN 'hu' THEN 'hungarian' WHEN 'id' THEN 'indonesian' WHEN 'ga' THEN 'irish'
    WHEN 'it' THEN 'italian' WHEN 'lt' THEN 'lithuanian' WHEN 'ne' THEN 'nepali' WHEN 'no' THEN 'norwegian'
    WHEN 'nb' THEN 'norwegian' WHEN 'pt' THEN 'portuguese' WHEN 'ro' THEN 'romanian' WHEN 'ru' THEN 'russian'
    WHEN 'sr' THEN 'serbian' WHEN 'es' THEN 'spanish' WHEN 'sv' THEN 'swedish' WHEN 'ta' THEN 'tamil'
    WHEN 'tr' THEN 'turkish' WHEN 'yi' THEN 'yiddish' END
    AND c.cfgnamespace = 'pg_catalog'::regnamespace), 'simple'::regconfig)
$$;--> statement-breakpoint
ALTER TABLE "room_messages" ADD COLUMN "search_config" regconfig DEFAULT 'simple'::regconfig NOT NULL;--> statement-breakpoint
UPDATE "room_messages" m SET "search_config" = room_search_config(r.language)
  FROM "stored_rooms" r WHERE r.id = m.room_id AND r.language IS NOT NULL;--> statement-breakpoint
ALTER TABLE "room_messages" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector("search_config", "text")) STORED;--> statement-breakpoint
CREATE INDEX "room_messages_search_idx" ON "room_messages" USING gin ("search");
