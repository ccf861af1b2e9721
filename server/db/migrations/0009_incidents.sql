CREATE TABLE "incident_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"incident_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"channel_id" integer,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"severity" text DEFAULT 'critical' NOT NULL,
	"configuration_id" integer NOT NULL,
	"configuration_name" text NOT NULL,
	"server_id" integer,
	"server_name" text,
	"monitor_id" integer,
	"monitor_name" text,
	"message" text,
	"payload" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" text,
	"acknowledged_via" text,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "configuration_channels" ADD COLUMN "escalate_after_minutes" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "incident_id" text;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_events_incident_idx" ON "incident_events" USING btree ("incident_id","id");--> statement-breakpoint
CREATE INDEX "incidents_company_opened_idx" ON "incidents" USING btree ("company_id","opened_at");--> statement-breakpoint
CREATE INDEX "incidents_open_idx" ON "incidents" USING btree ("status","opened_at");--> statement-breakpoint
CREATE INDEX "incidents_monitor_idx" ON "incidents" USING btree ("monitor_id","opened_at");--> statement-breakpoint
CREATE INDEX "incidents_closed_idx" ON "incidents" USING btree ("closed_at");--> statement-breakpoint
CREATE INDEX "outbox_incident_idx" ON "outbox" USING btree ("incident_id");