ALTER TABLE "companies" ADD COLUMN "max_concurrent_checks" integer DEFAULT 64 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "min_interval_seconds" integer DEFAULT 1 NOT NULL;