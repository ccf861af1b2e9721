CREATE TABLE "telegram_updates" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"next_offset" bigint DEFAULT 0 NOT NULL,
	"problem" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
