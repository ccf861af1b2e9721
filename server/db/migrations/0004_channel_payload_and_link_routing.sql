ALTER TABLE "configuration_channels" ADD COLUMN "min_severity" text DEFAULT 'critical' NOT NULL;--> statement-breakpoint
ALTER TABLE "configuration_channels" ADD COLUMN "send_recoveries" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "configuration_channels" ADD COLUMN "send_reminders" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "payload" text;