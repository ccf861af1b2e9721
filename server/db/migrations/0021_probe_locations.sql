ALTER TABLE "monitors" ADD COLUMN "locations" text[];--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "confirm" integer DEFAULT 1 NOT NULL;