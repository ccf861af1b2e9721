CREATE TABLE "disk_samples" (
	"server_id" integer NOT NULL,
	"mountpoint" text NOT NULL,
	"t" timestamp with time zone NOT NULL,
	"used_percent" real NOT NULL,
	CONSTRAINT "disk_samples_server_id_mountpoint_t_pk" PRIMARY KEY("server_id","mountpoint","t")
);
--> statement-breakpoint
ALTER TABLE "disk_samples" ADD CONSTRAINT "disk_samples_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;