ALTER TABLE "monitors" ADD COLUMN "address_secret" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "address_secret" text;