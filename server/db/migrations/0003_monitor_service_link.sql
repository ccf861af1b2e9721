ALTER TABLE "monitors" ADD COLUMN "service_id" integer;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitors_service_idx" ON "monitors" USING btree ("service_id");