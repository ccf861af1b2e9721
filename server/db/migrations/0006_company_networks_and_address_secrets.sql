ALTER TABLE "companies" ADD COLUMN "allowed_networks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "address_secret" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "address_secret" text;