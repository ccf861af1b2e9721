CREATE TABLE "disk_days" (
	"server_id" integer NOT NULL,
	"mountpoint" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"used" "bytea" NOT NULL,
	CONSTRAINT "disk_days_server_id_mountpoint_day_pk" PRIMARY KEY("server_id","mountpoint","day")
);
--> statement-breakpoint
ALTER TABLE "disk_days" ADD CONSTRAINT "disk_days_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;